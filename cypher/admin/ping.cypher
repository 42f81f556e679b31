// name: admin.ping
// mode: read
// params:
// description: the cheapest query the server must plan and run (readiness after start)
RETURN 1 AS ok
