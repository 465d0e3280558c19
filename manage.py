#!/usr/bin/env python
import os
import secrets
import sys

# Commands other than serving (scenario, parse_pm, sweep, migrate …) need no fixed signing key: without DEBUG and
# without SECRET_KEY they get a fresh random one for this process — never the published dev key. The
# web server (gunicorn, moderator.wsgi) and `runserver` still refuse to start without SECRET_KEY when DEBUG is off.
SERVING = {"runserver", "runall", "check"}

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")
    if len(sys.argv) > 1 and sys.argv[1] not in SERVING:
        os.environ.setdefault("SECRET_KEY", "process-" + secrets.token_urlsafe(40))
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
