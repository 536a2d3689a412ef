"""English texts. Official words (RULES.md): Continue, Exit, Treasure, Trap, Relic, Ruby,
Diamond, Chest, Camp, Cave."""

RULES = """\
# Diamant — the rules

**Goal.** Explore the cave over **5 rounds** and bring home the most treasure.
A ruby ♦ is worth 1, a diamond 5: only the points count.

## A round
1. Everyone enters the cave carrying nothing. The deck is shuffled.
2. A card is turned and added to the path:
   - **Treasure** *v*: the players in the cave share it equally (*v* ÷ players,
     rounded down); the rubies left over stay **on the card**.
   - **Trap**: the first of its kind does nothing. A **second trap of the same kind**
     is a **disaster**: everyone still in the cave loses what they carry and the
     round ends. One card of that trap leaves the game for good.
   - **Relic**: it stays on the path.
3. Everyone in the cave chooses in secret: **Continue** (`c`) or **Exit** (`l`).
   The choices are shown together; you may change yours until everyone has chosen.
4. The players who exit share the rubies left on the **whole path** (the remainder
   stays). If exactly **one** player exits, they also take **every relic** on the
   path. They put everything in their **chest**: it is safe. They wait in camp
   until the next round.
5. When nobody is left in the cave, the round ends; otherwise the next card is turned.

At the end of a round, rubies left on the path and relics not taken are lost.

## Rule sets
- **Classic** (2005): 15 treasures and 15 traps (3 each of spiders, snakes, lava,
  boulders, rams).
- **Relics** (2016): 5 relics are in the deck from the start. The 1st, 2nd and 3rd
  relics taken out of the cave are worth 5 points, the 4th and 5th 10 points.
- **Relic variant** (2021): one relic is added to the deck at the start of each
  round (worth 5, 7, 8, 10, then 12 points); a relic is worth its printed value.

## End of the game
After round 5, your score is the rubies in your chest plus your relics.
The highest score wins; **tied players share the victory**.

## Options
**Hidden chests**: nobody sees the others' chests until the end.
**Timer**: when it runs out, a computer player decides for you and your seat is
shown *away* until you press a key.

## Keys
`c` Continue · `l` Exit (or ← → and Enter, or the mouse) · `p` disaster chance ·
`g` game log · `t` chat · `?`/F1 these rules · `q` leave the table.
"""

CATALOGUE: dict[str, str] = {
    # cards and hazards
    "hazard.spiders": "spiders",
    "hazard.snakes": "snakes",
    "hazard.lava": "lava",
    "hazard.boulders": "boulders",
    "hazard.rams": "rams",
    "hazard_short.spiders": "Spiders",
    "hazard_short.snakes": "Snakes",
    "hazard_short.lava": "Lava",
    "hazard_short.boulders": "Boulder",
    "hazard_short.rams": "Rams",
    "hazard_abbr.spiders": "Sp",
    "hazard_abbr.snakes": "Sn",
    "hazard_abbr.lava": "La",
    "hazard_abbr.boulders": "Bo",
    "hazard_abbr.rams": "Ra",
    "card.treasure": "Treasure {value}",
    "card.hazard": "Trap: {hazard}",
    "card.relic": "Relic",
    "card.relic_value": "Relic ({value})",
    "card.relic_short": "Relic",
    "card.taken_short": "taken",
    "path.empty": "The cave is dark: the first card is about to be turned.",
    # rule sets
    "rules.classic": "Classic",
    "rules.relics": "Relics",
    "rules.relic-variant": "Relic variant",
    "rules.classic.long": "Classic (2005)",
    "rules.relics.long": "Relics (2016)",
    "rules.relic-variant.long": "Relic variant (2021)",
    "rules.body": RULES,
    # table
    "table.waiting": "Waiting for the game to start…",
    "waiting.title": "Table {name}: waiting for players",
    "waiting.timer": "decision timer {seconds} s",
    "waiting.no_timer": "no decision timer",
    "waiting.seat_free": "free seat",
    "waiting.you": "you",
    "waiting.person": "person",
    "waiting.computer": "computer player ({spec})",
    "waiting.free": "Free seats: {count}. The game begins when every seat is taken.",
    "table.round": "Round {round}/{rounds}",
    "table.card": "card {step}",
    "table.entrances": "Cave:",
    "place.cave": "Cave",
    "place.camp": "Camp",
    "players.name": "Player",
    "players.place": "Where",
    "players.carried": "Carried",
    "players.chest": "Chest",
    "players.relics": "Relics",
    "players.status": "Turn",
    "players.decided": "decided",
    "players.away": "away",
    "players.computer": "(computer)",
    "deck.title": "Deck: {count} cards",
    "deck.treasure": "Treasure {count} · {ruby}{rubies}",
    "deck.hazard": "Trap {count}:",
    "deck.relic": "Relic {count}",
    "deck.seen": "Seen: {hazards}",
    "deck.removed": "Out: {hazards}",
    "deck.chance": "Disaster chance: {percent}%",
    "decision.continue": "Continue",
    "decision.leave": "Exit",
    "decision.prompt": "Your turn: Continue or Exit?",
    "decision.chosen": "You chose {choice}; you may change it until all have chosen.",
    "decision.in_camp": "You are in camp until the next round.",
    "decision.waiting": "Waiting for the next card…",
    "decision.timer": "⏱ {seconds} s",
    "chat.placeholder": "Say something and press Enter",
    "chat.title": "Chat",
    "log.title": "Game log",
    "log.close": "g: close",
    "confirm.leave": "Leave this table while the game goes on?",
    "confirm.yes": "Yes [y]",
    "confirm.no": "No [n]",
    "too_small.enlarge": "Please enlarge your terminal to at least {width}×{height}.\nUntil then, keys do nothing.",
    "too_small.game_goes_on": "The game goes on meanwhile.",
    # events
    "event.round_started": "Round {round} begins: everyone enters the cave.",
    "event.round_started_relic": "Round {round} begins: everyone enters the cave; a relic worth {value} joins the deck.",
    "event.treasure": "Treasure {value}: {share}{ruby} each for {players} in the cave, {left}.",
    "event.left_on_card": "{count}{ruby} left on the card",
    "event.hazard_first": "Trap: {hazard}. Nothing happens… this time.",
    "event.hazard_second": "A second trap: {hazard}!",
    "event.relic": "A relic lies on the path.",
    "event.decided": "{name} has chosen.",
    "event.continuing": "Continue: {names}",
    "event.leaving": "Exit: {names}",
    "event.continuing_count": "Continue: {count} player|Continue: {count} players",
    "event.leaving_count": "Exit: {count} player|Exit: {count} players",
    "event.left": "{name} goes back to camp and banks {banked}{ruby}.",
    "event.left_picked": "{name} goes back to camp and banks {banked}{ruby} ({picked}{ruby} from the path).",
    "event.left_relics": "{name} goes back to camp and banks {banked}{ruby} and {relics}.",
    "event.left_picked_relics": "{name} banks {banked}{ruby} ({picked}{ruby} from the path) and {relics}.",
    "event.relics": "{count} relic worth {points}|{count} relics worth {points}",
    "event.disaster": "DISASTER! The {hazard} again!",
    "event.disaster_losses": "Lost: {losses}.",
    "event.disaster_losses_count": "{count} player loses {rubies}{ruby}.|{count} players lose {rubies}{ruby}.",
    "event.round_ended_disaster": "Round {round} ends in disaster ({hazard}).",
    "event.round_ended_safe": "Round {round} ends: everyone is back in camp.",
    "event.game_ended": "Game over. Victory: {names}!",
    "event.game_ended_count": "Game over: {count} players share the victory!",
    # summary and final
    "summary.title": "Round {round} of {rounds} is over",
    "summary.disaster": "DISASTER! The {hazard} again!",
    "summary.safe": "Everyone went back to camp safely.",
    "summary.cards": "Cards revealed: {cards}",
    "summary.banked": "Rubies",
    "summary.relics": "Relics",
    "summary.score": "Score",
    "summary.next": "Enter: back to the table (the next round starts by itself).",
    "final.title": "Final scores",
    "final.winner": "Victory: {names}",
    "final.winners": "Shared victory: {names}",
    "final.round_short": "R{round}",
    "final.total": "Total",
    "final.chart": "Over the rounds",
    "final.ended": "Ended",
    "final.rematch": "Rematch [r]",
    "final.quit": "Quit [q]",
    # setup
    "setup.title": "◆ DIAMANT ◆",
    "setup.subtitle": "Push your luck in the cave: continue, or exit with your rubies?",
    "setup.name": "Your name",
    "setup.rules": "Rule set",
    "setup.players": "Players",
    "setup.opponents": "Computer players",
    "setup.timer": "Decision timer",
    "setup.timer_off": "Off",
    "setup.timer_seconds": "{seconds} s",
    "setup.hidden": "Hidden chests",
    "setup.language": "Language",
    "setup.yes": "Yes",
    "setup.no": "No",
    "setup.start": "Start ⏎",
    "setup.show_rules": "Rules [?]",
    "setup.name_missing": "Please type your name first.",
    "level.beginner": "Beginner",
    "level.easy": "Easy",
    "level.medium": "Medium",
    "level.hard": "Hard",
    "level.expert": "Expert",
    "level.mixed": "Mixed (one of each)",
    "level.custom": "Chosen: {bots}",
    "level.custom_more": "{bots} and {count} more",
    # key hints
    "key.continue": "Continue",
    "key.leave": "Exit",
    "key.chance": "Risk",
    "key.log": "Log",
    "key.chat": "Chat",
    "key.quit": "Quit",
    "key.rules": "Rules",
    "key.close": "Close",
    "key.yes": "Yes",
    "key.no": "No",
    "key.start": "Start",
    "key.rematch": "Rematch",
    "key.continue_game": "Back to the table",
    # SSH server: the lobby, opening a table, and what the server tells a person
    "lobby.title": "◆ Diamant over SSH ◆ the lobby",
    "lobby.who_guest": "You are {name} (guest).",
    "lobby.who_key": "You are {name} (known by your SSH key).",
    "lobby.language": "Language: {language}",
    "lobby.resume": "Resume code: {code} · {command}",
    "lobby.col.table": "Table",
    "lobby.col.rules": "Rules",
    "lobby.col.people": "People",
    "lobby.col.computers": "Computers",
    "lobby.col.free": "Free",
    "lobby.col.timer": "Timer",
    "lobby.col.status": "Status",
    "lobby.status.waiting": "waiting",
    "lobby.status.playing": "playing",
    "lobby.status.finished": "finished",
    "lobby.timer_off": "off",
    "lobby.empty": "No tables yet: press n to open one.",
    "lobby.choose_first": "Choose a table first (or press n to open one).",
    "lobby.resume_prompt": "Your resume code (shown when you sat down):",
    "lobby.key.join": "Join",
    "lobby.key.watch": "Watch",
    "lobby.key.new": "New table",
    "lobby.key.resume": "Resume code",
    "lobby.key.language": "Language",
    "lobby.error.name": "{name} cannot name a table: use 1 to 20 letters, digits, '_', '.' or '-'.",
    "lobby.error.taken": "There is already a table called {name}.",
    "lobby.error.too_many": "The server has too many tables open; join one of them instead.",
    "lobby.error.settings": "These settings cannot open a table: {reason}",
    "lobby.error.no_table": "There is no table called {name}.",
    "create.title": "Open a table",
    "create.name": "Name",
    "create.seats": "Seats",
    "create.strength": "Their strength",
    "create.open": "Open the table ⏎",
    "create.cancel": "Cancel (Esc)",
    "create.no_seat_left": "{bots} computer players leave no seat for you at {seats} seats.",
    "server.no_seat_for_code": "No seat is waiting for the code {code}.",
    "server.replaced": "You connected again from elsewhere; this connection is closed.",
    "server.idle": "Closed after {minutes} minutes idle in the lobby. Come back soon!",
    "server.stopping": "The server is stopping; games in progress have been saved. Thanks for playing!",
    "server.failed": "Sorry, something went wrong (session {session}); it has been logged.",
    "server.flood": "Too much input at once (a huge paste?): some of it was ignored.",
    "server.no_screenshots": "Screenshots are not available over SSH.",
    # Fair tables: waiting room, spectators, rematch votes, unavailable tables, help.
    "waiting.start_hint": "Press s to start now: computer players take the free seats.",
    "waiting.creator_can_start": "{name} opened this table and can start it now.",
    "key.start_now": "Start now",
    "watching.note": "You are watching: t chat · q back to the lobby",
    "chat.watching": "{name} (watching)",
    "final.votes": "Rematch: {votes}",
    "final.vote_hint": "Press r to ask for a rematch; it starts when everyone agrees.",
    "final.voted": "You asked for a rematch; waiting for the others.",
    "final.watching": "You are watching: the players decide on a rematch.",
    "unavailable.full": "Table {name} is full.",
    "unavailable.begun": "The game at table {name} has already begun.",
    "unavailable.finished": "The game at table {name} is over.",
    "unavailable.hint": "You can watch it, or go back to the lobby and choose another table.",
    "unavailable.watch": "Watch [w]",
    "unavailable.back": "Lobby [Esc]",
    "key.watch": "Watch",
    "key.lobby": "Lobby",
    "help.resume": "Your resume code is {code}. If your connection drops: {command}",
    "limit.flood": "Keys are arriving faster than anyone types: the extra ones are ignored. If this goes on, the session will be closed.",
    "limit.flood_closed": 'Session closed: too many keys or mouse reports for too long. Reconnect and type at a normal pace.',
    "limit.server_sessions": "The server has as many sessions open as it can take ({limit}); please try again in a few minutes.",
    "limit.address_sessions": "At most {limit} sessions at once from one address: close one of them, then connect again.",
    "limit.person_sessions": "You already have as many sessions open as one person may ({limit}): close one of them, then connect again.",
    "lobby.title_named": "◆ {server} ◆ Diamant over SSH ◆ the lobby",
    "login.name_refused": "The name {name} is kept for the server and its staff: nobody may log in under it, or under a name that looks like it. Connect again under another name: {command}",
    "login.other_name": "yourname",
    "limit.tables_per_person": "You already have as many tables open as one person may ({limit}): join one of them, or wait until one closes, before opening another.",
    "limit.waiting": "Closed after {minutes} minutes at table {name} with no game going on. Come back when everyone is ready to play!",
    "limit.watchers": "Table {name} has as many spectators as a table may ({limit}): watch another table, or try again later.",
    "limit.chat_person": "Wait {seconds} s before you chat again: at most {lines} lines every {window} s each.",
    "limit.chat_watchers": "Wait {seconds} s before you chat again: the spectators have used up their share ({lines} lines every {window} s).",
    "limit.chat_table": "Wait {seconds} s before you chat again: this table's chat is full ({lines} lines every {window} s in all).",
    "limit.resume_wait": "Too many wrong resume codes from your address: try again in {seconds} s.",
    "limit.taken_over": "Your seat was taken back with your resume code from another connection; this connection is closed.",
}
