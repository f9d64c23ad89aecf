"""A small token-refresh app that the search and answer tests index: known functions, calls and lines."""

AUTH = '''"""Authentication helpers."""
import time


def validate_refresh_token(token, now=None):
    """Reject tokens whose expiry is in the past."""
    now = now or time.time()
    if token.expires_at < now:
        raise TokenExpired("refresh token expired")
    return check_signature(token)


def check_signature(token):
    return token.signature == sign(token.payload)


def sign(payload):
    return "sig:" + payload


class TokenExpired(Exception):
    pass
'''
ROUTES = '''from .auth import validate_refresh_token


def refresh_route(request):
    token = parse_token(request.headers["Authorization"])
    return validate_refresh_token(token)


def parse_token(header):
    return header.split(" ")[1]
'''
