# dpscale's production image: `docker build -t dpscale .`, then `docker compose up` (compose.yaml) for PostgreSQL
# beside it. CI runs the same steps outside a container (.ci/smoke-image), then builds and runs this file with a
# real engine (.ci/container).
ARG PYTHON=python:3.11-slim-bookworm

# Build: the locked dependencies (only when requirements.txt changes), then dpscale itself, into /opt/dpscale.
FROM ${PYTHON} AS build
WORKDIR /src
COPY requirements.txt scripts/install.sh ./
RUN sh install.sh deps /opt/dpscale .
COPY pyproject.toml README.md LICENSE ./
COPY bot bot
COPY locales locales
# pip compiled every module as it installed it (a quicker cold start); pip and setuptools are not needed to run
RUN sh install.sh app /opt/dpscale . && sh install.sh strip /opt/dpscale

# Run: the virtualenv alone, as an unprivileged user, with the Procfile's web command.
FROM ${PYTHON}
RUN useradd --system --create-home --home-dir /home/dpscale --uid 10001 dpscale
COPY --from=build /opt/dpscale /opt/dpscale
ENV PATH=/opt/dpscale/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=3000
USER dpscale
# without DATABASE_URL the SQLite file dpscale.sqlite3 lands here: mount a volume, or use PostgreSQL (compose.yaml)
WORKDIR /home/dpscale
EXPOSE 3000
# /healthz answers `ok` without calling Slack; the slim image has no curl, Python does the asking
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '3000'), timeout=2)"]
# exec form: the server is PID 1 and gets the platform's SIGTERM itself, to drain (WEB_DRAIN_TIMEOUT)
CMD ["python", "-m", "bot.server"]
