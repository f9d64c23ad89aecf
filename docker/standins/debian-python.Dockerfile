# Stand-in for python:3.11-slim, for scripts/docker-check where Docker Hub cannot be reached: Debian bookworm's
# own Python 3.11 in a virtual environment at /usr/local, so `python` and `pip` are where the official image has
# them. BASE_IMAGE is a Debian bookworm root file system imported by scripts/docker-check (debootstrap).
ARG BASE_IMAGE=graphrag-local/bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /usr/local
# pip reads the system trust store, which holds the machine's own CAs too (see scripts/docker-check)
ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
CMD ["python3"]
