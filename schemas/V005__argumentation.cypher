// version: 5
// description: argumentation: unique argument names per namespace, frameworks by name, index-backed grounded frontier
// params:
// Every node that takes part in an attack graph carries the extra label Argument with
// space, ns (namespace: 'framework:<name>', 'deliberation:<id>', 'dispute:<key>', ...) and name
// (the file's own argument name for imports; the node's id for a Claim or Proposal).
// See docs/argumentation.md.
CREATE CONSTRAINT argument_space_ns_name IF NOT EXISTS FOR (n:Argument) REQUIRE (n.space, n.ns, n.name) IS UNIQUE;
CREATE CONSTRAINT framework_space_name IF NOT EXISTS FOR (n:Framework) REQUIRE (n.space, n.name) IS UNIQUE;
// All arguments of one namespace (init, finish, labels, export, delete).
CREATE RANGE INDEX argument_space_ns IF NOT EXISTS FOR (n:Argument) ON (n.space, n.ns);
// The grounded frontier: `frontier` is set only on arguments waiting to become IN at that wave,
// so each wave is one index seek on (space, ns, wave number) and costs O(frontier).
CREATE RANGE INDEX argument_space_ns_frontier IF NOT EXISTS FOR (n:Argument) ON (n.space, n.ns, n.frontier);
