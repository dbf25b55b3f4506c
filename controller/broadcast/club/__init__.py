"""The club's side of the broadcast (`reedboard club`): it follows the boards on the broker and
shows them, runs the evening's tournament and, when asked, the broker itself.

club.py keeps what the boards send (their journals, checked line by line, and their states),
follow.py follows them on the broker (aiomqtt) and publishes the club's status and pairings,
app.py serves the club's page and API and the spectators' page (static/; the spectators read the
boards from the broker itself), organiser.py takes the organiser's actions on the tournament and
its exports, tournament/ is the tournament itself (pure), snapshot_check.py checks a board's
snapshot before the page shows it; broker.py (amqtt, or Mosquitto as mosquitto.py runs it) and
rabbitmq.py run the brokers on this computer (RabbitMQ: MQTT over WebSockets for many
spectators). It speaks to the boards only through the topics and payloads of ../messages.py, on
the broker ../address.py names; nothing here imports the board's publisher, nor it this.
"""
