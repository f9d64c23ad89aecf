// name: set_embeddings
// Store chunk vectors (as float32 arrays, half the size of a float list) with the id of the model that made
// them. A chunk whose text changed since it was read (content_hash differs) is left alone: a later fill
// embeds its new text. row: {id, content_hash, vector}
// returns: written
// params: rows, model_id
UNWIND $rows AS row
MATCH (c:CodeNode {id: row.id})
WHERE c:Chunk AND c.content_hash = row.content_hash
CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)
SET c.embedding_model = $model_id
RETURN count(c) AS written
