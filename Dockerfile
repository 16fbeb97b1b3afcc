# The bot, one process per container (docker-compose.yml runs two, sharing one PostgreSQL; see docs/scaling.md).
FROM python:3.11-slim

WORKDIR /bot
# Dependencies first: this layer is rebuilt only when requirements.txt changes.
COPY requirements.txt ./
RUN pip install --no-cache-dir --disable-pip-version-check -r requirements.txt

# The bot's code only, named one by one: never a local .env (the token) or a SQLite file.
COPY bot.py ./
COPY ai ./ai
COPY cogs ./cogs
COPY db ./db
COPY engine ./engine
COPY i18n ./i18n
COPY render ./render
COPY service ./service
COPY process ./process

# Settings come from the environment (docker-compose.yml, .env.example); logs go to stdout.
ENV PYTHONUNBUFFERED=1
CMD ["python", "bot.py"]
