// name: calls_of_repo
// Every CALLS edge leaving a repository's nodes, with both ends' paths and line ranges: for benchmarks that
// sample call paths and for the call-graph accuracy evaluation (eval/callgraph_oracle.py).
// returns: src, dst, src_path, dst_path, dst_name, dst_start, dst_end, lines, confidence, resolved_by
// params: repo
MATCH (a:CodeNode {repo: $repo})-[e:CALLS]->(b:CodeNode)
RETURN a.id AS src, b.id AS dst, a.path AS src_path, b.path AS dst_path, b.name AS dst_name,
       b.start_line AS dst_start, b.end_line AS dst_end, e.lines AS lines, e.confidence AS confidence,
       e.resolved_by AS resolved_by
