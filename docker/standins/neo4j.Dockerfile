# Stand-in for neo4j:5.26-community, for scripts/docker-check where Docker Hub cannot be reached. It is NOT the
# official image: the same server (the 5.26 Community jars the launcher takes from Maven Central, in lib/), the
# same ports (7474, 7687), volumes (/data, /logs), user and documented environment (NEO4J_AUTH,
# NEO4J_<setting> with '_' -> '.' and '__' -> '_'), and wget for docker-compose.yml's health check.
# Build context: a directory scripts/docker-check fills with lib/, jvm.flags and neo4j-entrypoint.sh.
ARG BASE_IMAGE=graphrag-local/bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless wget \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /var/lib/neo4j --uid 7474 neo4j \
    && mkdir -p /var/lib/neo4j/conf /data /logs \
    && chown -R neo4j /var/lib/neo4j /data /logs
ENV NEO4J_HOME=/var/lib/neo4j LANG=C.UTF-8
COPY lib/ /var/lib/neo4j/lib/
COPY jvm.flags neo4j-entrypoint.sh /var/lib/neo4j/
USER neo4j
WORKDIR /var/lib/neo4j
VOLUME ["/data", "/logs"]
EXPOSE 7474 7687
ENTRYPOINT ["/var/lib/neo4j/neo4j-entrypoint.sh"]
