// name: modules_orphaned_delete
// Delete up to $limit external modules (:Module, shared across repositories) that nothing points at any more:
// those only a deleted repository imported. Not while any repository is in a run or a swap: a swap in several
// transactions upserts its modules in its first transaction and points edges at them in later ones.
// returns: deleted
// params: limit
MATCH (m:Module)
WHERE NOT (m)--()
  AND NOT EXISTS { MATCH (r:Repository) WHERE r.running IS NOT NULL OR r.swapping IS NOT NULL }
WITH m LIMIT $limit
DELETE m
RETURN count(*) AS deleted
