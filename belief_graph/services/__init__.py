"""Services: the engine's behaviour, composed from repositories inside explicit transactions."""
