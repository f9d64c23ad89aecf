# graphrag-code in a container, for docker-compose.yml (the Neo4j service there comes from the official image).
# Build context is the repository root; only the package, its Cypher files and pyproject are copied in.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GRAPHRAG_STATE_DIR=/state

# git reads the mounted repository; it belongs to another uid, so trust every directory explicitly.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && git config --system --add safe.directory '*'

WORKDIR /app
# README.md* matches nothing until a README exists; pyproject.toml keeps the COPY valid either way.
COPY pyproject.toml README.md* ./
COPY graphrag_code/ graphrag_code/
COPY cypher/ cypher/
RUN pip install -e .

RUN useradd --create-home --uid 10001 graphrag \
    && mkdir -p /state \
    && chown graphrag /state
USER graphrag
VOLUME ["/state"]

CMD ["graphrag-code", "index", "/repo"]
