"""The web server's parts under `bot.server`: gunicorn's arbiter, dpscale's uvicorn worker, its HTTP front and
its ASGI-to-WSGI bridge."""
