"""The Flask gateway: REST and Server-Sent Events for clients (see ``docs/API.md``).

Start it with ``gunicorn -k gevent --worker-connections 4096 -b 127.0.0.1:$PORT 'gateway.app:create_app()'``.
"""
