"""Textos en español. Palabras oficiales (RULES.md): ¡Vamos!, Me las piro, Tesoro, Trampa,
Reliquia, Rubí, Diamante, Baúl, Campamento, Cueva."""

RULES = """\
# Diamant — las reglas

**Objetivo.** Explorar la cueva durante **5 rondas** y llevarse el mayor tesoro.
Un rubí ♦ vale 1, un diamante 5: solo cuentan los puntos.

## Una ronda
1. Todos entran en la cueva sin nada. Se baraja el mazo.
2. Se revela una carta y se añade al camino:
   - **Tesoro** *v*: los jugadores en la cueva se lo reparten a partes iguales
     (*v* ÷ jugadores, redondeando hacia abajo); lo que sobra se queda **en la carta**.
   - **Trampa**: la primera de un tipo no hace nada. Una **segunda trampa del mismo
     tipo** es un **desastre**: quienes siguen en la cueva pierden lo que llevan y la
     ronda termina. Una carta de esa trampa sale del juego para siempre.
   - **Reliquia**: se queda en el camino.
3. Cada jugador en la cueva elige en secreto: **¡Vamos!** (`c`) o **Me las piro** (`l`).
   Las elecciones se revelan a la vez; puedes cambiar la tuya hasta que todos hayan elegido.
4. Quienes se van se reparten los rubíes que quedan en **todo el camino** (el resto
   se queda). Si se va **un solo** jugador, también se lleva **todas las reliquias**
   del camino. Todo va a su **baúl**: está a salvo. Espera en el campamento hasta la
   ronda siguiente.
5. Cuando no queda nadie en la cueva, la ronda termina; si no, se revela otra carta.

Al final de una ronda se pierden los rubíes del camino y las reliquias no recogidas.

## Reglas
- **Clásico** (2005): 15 tesoros y 15 trampas (3 de cada: arañas, serpientes, lava,
  rocas, arietes).
- **Reliquias** (2016): 5 reliquias están en el mazo desde el principio. La 1.ª, 2.ª
  y 3.ª reliquias sacadas de la cueva valen 5 puntos; la 4.ª y la 5.ª, 10 puntos.
- **Variante de reliquias** (2021): al comienzo de cada ronda se añade una reliquia
  al mazo (5, 7, 8, 10 y luego 12 puntos); vale lo que tiene impreso.

## Fin de la partida
Tras la 5.ª ronda, tu puntuación son los rubíes de tu baúl más tus reliquias.
Gana la puntuación más alta; **los empatados comparten la victoria**.

## Opciones
**Baúles ocultos**: nadie ve los baúles de los demás hasta el final.
**Temporizador**: si se agota, un jugador de la computadora decide por ti y tu
puesto aparece *ausente* hasta que pulses una tecla.

## Teclas
`c` ¡Vamos! · `l` Me las piro (o ← → y Intro, o el ratón) · `p` riesgo de desastre ·
`g` registro · `t` chat · `?`/F1 estas reglas · `q` dejar la mesa.
"""

CATALOGUE: dict[str, str] = {
    "hazard.spiders": "arañas",
    "hazard.snakes": "serpientes",
    "hazard.lava": "lava",
    "hazard.boulders": "rocas",
    "hazard.rams": "arietes",
    "hazard_short.spiders": "Arañas",
    "hazard_short.snakes": "Serpien",
    "hazard_short.lava": "Lava",
    "hazard_short.boulders": "Rocas",
    "hazard_short.rams": "Arietes",
    "card.treasure": "Tesoro {value}",
    "card.hazard": "Trampa: {hazard}",
    "card.relic": "Reliquia",
    "card.relic_value": "Reliquia ({value})",
    "card.relic_short": "Reliq.",
    "card.taken_short": "tomada",
    "path.empty": "La cueva está oscura: se va a revelar la primera carta.",
    "rules.classic": "Clásico",
    "rules.relics": "Reliquias",
    "rules.relic-variant": "Variante de reliquias",
    "rules.classic.long": "Clásico (2005)",
    "rules.relics.long": "Reliquias (2016)",
    "rules.relic-variant.long": "Variante de reliquias (2021)",
    "rules.body": RULES,
    "table.waiting": "Esperando a que empiece la partida…",
    "waiting.title": "Mesa {name}: esperando jugadores",
    "waiting.timer": "temporizador {seconds} s",
    "waiting.no_timer": "sin temporizador",
    "waiting.seat_free": "asiento libre",
    "waiting.you": "tú",
    "waiting.person": "persona",
    "waiting.computer": "computadora ({spec})",
    "waiting.free": "Asientos libres: {count}. La partida empieza cuando todos estén ocupados.",
    "table.round": "Ronda {round}/{rounds}",
    "table.card": "carta {step}",
    "table.entrances": "Cueva:",
    "place.cave": "Cueva",
    "place.camp": "Campam.",
    "players.name": "Jugador",
    "players.place": "Dónde",
    "players.carried": "Lleva",
    "players.chest": "Baúl",
    "players.relics": "Reliq.",
    "players.status": "Turno",
    "players.decided": "decidió",
    "players.away": "ausente",
    "players.computer": "(computadora)",
    "deck.title": "Mazo: {count} cartas",
    "deck.treasure": "Tesoro {count} · {ruby}{rubies}",
    "deck.hazard": "Trampa {count}:",
    "deck.relic": "Reliquia {count}",
    "deck.seen": "Vistas: {hazards}",
    "deck.removed": "Fuera: {hazards}",
    "deck.chance": "Riesgo de desastre: {percent} %",
    "decision.continue": "¡Vamos!",
    "decision.leave": "Me las piro",
    "decision.prompt": "Tu turno: ¿¡Vamos! o Me las piro?",
    "decision.chosen": "Elegiste {choice}; puedes cambiarlo hasta que todos elijan.",
    "decision.in_camp": "Estás en el campamento hasta la próxima ronda.",
    "decision.waiting": "Esperando la próxima carta…",
    "decision.timer": "⏱ {seconds} s",
    "chat.placeholder": "Escribe algo y pulsa Intro",
    "chat.title": "Chat",
    "chat.spectator": "espectador",
    "confirm.leave": "¿Dejar esta mesa mientras sigue la partida?",
    "confirm.yes": "Sí [y]",
    "confirm.no": "No [n]",
    "too_small.enlarge": "Agranda tu terminal al menos a {width}×{height}.\nHasta entonces, las teclas no hacen nada.",
    "too_small.game_goes_on": "La partida sigue mientras tanto.",
    "event.round_started": "Empieza la ronda {round}: todos entran en la cueva.",
    "event.relic_added": "Una reliquia de {value} se añade al mazo.",
    "event.treasure": "Tesoro {value}: {share}{ruby} para cada uno de los {count} en la cueva, {remainder}{ruby} quedan en la carta.",
    "event.hazard_first": "Trampa: {hazard}. No pasa nada… esta vez.",
    "event.hazard_second": "¡Una segunda trampa: {hazard}!",
    "event.relic": "Hay una reliquia en el camino.",
    "event.decided": "{name} ya ha elegido.",
    "event.continuing": "¡Vamos!: {names}",
    "event.leaving": "Me las piro: {names}",
    "event.left": "{name} vuelve al campamento y guarda {banked}{ruby} ({picked}{ruby} recogidos).",
    "event.left_relics": "Se lleva {count} reliquia(s) por {points}.",
    "event.disaster": "¡DESASTRE! Segunda trampa: {hazard}",
    "event.disaster_losses": "Pierden: {losses}.",
    "event.round_ended_disaster": "La ronda {round} acaba en desastre ({hazard}).",
    "event.round_ended_safe": "Termina la ronda {round}: todos están en el campamento.",
    "event.game_ended": "Fin de la partida. Victoria: {names}!",
    "summary.title": "Terminó la ronda {round} de {rounds}",
    "summary.disaster": "¡DESASTRE! Segunda trampa: {hazard}",
    "summary.safe": "Todos volvieron sanos y salvos al campamento.",
    "summary.cards": "Cartas reveladas: {cards}",
    "summary.banked": "Al baúl",
    "summary.score": "Total",
    "summary.next": "Intro: volver a la mesa (la siguiente ronda empieza sola).",
    "final.title": "Puntuación final",
    "final.winner": "Victoria: {names}",
    "final.winners": "Victoria compartida: {names}",
    "final.round_short": "R{round}",
    "final.total": "Total",
    "final.chart": "Ronda a ronda",
    "final.ended": "Final",
    "final.rematch": "Revancha [r]",
    "final.quit": "Salir [q]",
    "setup.title": "◆ DIAMANT ◆",
    "setup.subtitle": "Tienta a la suerte: ¿seguir, o salir con tus rubíes?",
    "setup.name": "Tu nombre",
    "setup.rules": "Reglas",
    "setup.players": "Jugadores",
    "setup.opponents": "Rivales (computadora)",
    "setup.timer": "Temporizador",
    "setup.timer_off": "No",
    "setup.timer_seconds": "{seconds} s",
    "setup.hidden": "Baúles ocultos",
    "setup.language": "Idioma",
    "setup.yes": "Sí",
    "setup.no": "No",
    "setup.start": "Jugar ⏎",
    "setup.show_rules": "Reglas [?]",
    "setup.name_missing": "Escribe primero tu nombre.",
    "level.beginner": "Principiante",
    "level.easy": "Fácil",
    "level.medium": "Medio",
    "level.hard": "Difícil",
    "level.expert": "Experto",
    "level.mixed": "Mezclados (uno de cada)",
    "level.custom": "Elegidos: {bots}",
    "key.continue": "¡Vamos!",
    "key.leave": "Me las piro",
    "key.chance": "Riesgo",
    "key.log": "Registro",
    "key.chat": "Chat",
    "key.quit": "Salir",
    "key.rules": "Reglas",
    "key.close": "Cerrar",
    "key.yes": "Sí",
    "key.no": "No",
    "key.start": "Jugar",
    "key.rematch": "Revancha",
    "key.continue_game": "Volver a la mesa",
    # SSH server: the lobby, opening a table, and what the server tells a person
    "lobby.title": "◆ Diamant por SSH ◆ la sala",
    "lobby.who_guest": "Eres {name} (invitado).",
    "lobby.who_key": "Eres {name} (reconocido por tu clave SSH).",
    "lobby.language": "Idioma: {language}",
    "lobby.resume": "Código para volver: {code} · ssh -t -p {port} HOST resume {code}",
    "lobby.col.table": "Mesa",
    "lobby.col.rules": "Reglas",
    "lobby.col.people": "Personas",
    "lobby.col.computers": "Máquinas",
    "lobby.col.free": "Libres",
    "lobby.col.timer": "Tiempo",
    "lobby.col.status": "Estado",
    "lobby.status.waiting": "esperando",
    "lobby.status.playing": "jugando",
    "lobby.status.finished": "terminada",
    "lobby.timer_off": "no",
    "lobby.empty": "Aún no hay mesas: pulsa n para abrir una.",
    "lobby.choose_first": "Elige primero una mesa (o pulsa n para abrir una).",
    "lobby.resume_prompt": "Tu código para volver (se mostró al sentarte):",
    "lobby.key.join": "Unirse",
    "lobby.key.watch": "Mirar",
    "lobby.key.new": "Nueva mesa",
    "lobby.key.resume": "Código",
    "lobby.key.language": "Idioma",
    "lobby.error.name": "{name} no sirve como nombre de mesa: usa de 1 a 20 letras, cifras, '_', '.' o '-'.",
    "lobby.error.taken": "Ya hay una mesa llamada {name}.",
    "lobby.error.too_many": "El servidor tiene demasiadas mesas abiertas; únete a una de ellas.",
    "lobby.error.settings": "Con estos ajustes no se puede abrir una mesa: {reason}",
    "lobby.error.no_table": "No hay ninguna mesa llamada {name}.",
    "lobby.error.begun": "La partida de la mesa {name} ya ha empezado; pulsa w para mirarla.",
    "lobby.error.full": "La mesa {name} está llena; pulsa w para mirarla.",
    "create.title": "Abrir una mesa",
    "create.name": "Nombre",
    "create.seats": "Asientos",
    "create.strength": "Su nivel",
    "create.open": "Abrir la mesa ⏎",
    "create.cancel": "Cancelar (Esc)",
    "create.no_seat_left": "Con {bots} rivales de la computadora en {seats} asientos no queda sitio para ti.",
    "server.key.start": "Empezar ya",
    "server.waiting_hint": "Pulsa s para empezar ya: la computadora ocupa los asientos libres.",
    "server.only_creator": "Solo quien abrió esta mesa puede empezarla antes.",
    "server.resume_title": "Si se corta tu conexión",
    "server.resume_toast": "Tu código para volver es {code}: ssh -t -p {port} HOST resume {code}",
    "server.no_seat_for_code": "Ningún asiento espera el código {code}.",
    "server.replaced": "Te has vuelto a conectar desde otro sitio; esta conexión se cierra.",
    "server.idle": "Cerrado tras {minutes} minutos sin actividad en la sala. ¡Vuelve pronto!",
    "server.stopping": "El servidor se detiene; las partidas en curso se han guardado. ¡Gracias por jugar!",
    "server.failed": "Lo sentimos, algo ha fallado (sesión {session}); ha quedado registrado.",
    "server.flood": "Demasiada entrada de golpe (¿un pegado enorme?): se ha ignorado una parte.",
    "server.no_screenshots": "Las capturas de pantalla no están disponibles por SSH.",
    "server.watching": "{name} (mira)",
}
