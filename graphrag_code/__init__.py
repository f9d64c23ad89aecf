"""graphrag-code: index source repositories into a Neo4j code graph and answer with checked citations."""

__version__ = "0.1.0"
