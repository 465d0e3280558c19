# The image of compose.yaml: the locked production dependencies, the code, and the static files collected at build
# (content-hashed, gzip-compressed: WhiteNoise serves them). The processes are the Procfile's (compose.yaml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORT=8000
WORKDIR /app
COPY requirements/base.txt requirements/base.txt
RUN pip install --no-cache-dir -r requirements/base.txt
COPY . .
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --home /app app && chown -R app /app/var
USER app
EXPOSE 8000
CMD ["sh", "-c", "gunicorn moderator.wsgi --bind 0.0.0.0:$PORT --workers 3 --access-logfile -"]
