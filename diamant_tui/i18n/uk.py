"""Українські тексти. Офіційні слова (RULES.md): Углиб, Назад, Скарб, Халепа, Реліквія,
Рубін, Алмаз, Скриня, Табір, Печера."""

RULES = """\
# Діамант — правила

**Мета.** Досліджувати печеру впродовж **5 раундів** і винести найбільше скарбів.
Рубін ♦ вартий 1, алмаз — 5: рахуються лише очки.

## Раунд
1. Усі заходять у печеру з порожніми руками. Колоду тасують.
2. Відкривають карту й додають її до стежки:
   - **Скарб** *v*: гравці в печері ділять його порівну (*v* ÷ гравців, з
     округленням униз); решта рубінів лишається **на карті**.
   - **Халепа**: перша халепа свого виду нічого не робить. **Друга халепа того
     самого виду** — це **катастрофа**: усі, хто ще в печері, втрачають те, що
     несуть, і раунд закінчується. Одна карта цієї халепи назавжди виходить з гри.
   - **Реліквія**: лишається на стежці.
3. Кожен у печері таємно обирає: **Углиб** (`c`) або **Назад** (`l`).
   Вибір відкривають одночасно; свій можна змінити, доки не обрали всі.
4. Ті, хто йде назад, ділять рубіни, що лишилися на **всій стежці** (решта
   лишається). Якщо йде **лише один** гравець, він забирає ще й **усі реліквії** зі
   стежки. Усе здобуте йде до його **скрині** — там воно в безпеці. Він чекає в
   таборі до наступного раунду.
5. Коли в печері нікого не лишилося, раунд закінчується; інакше відкривають наступну карту.

Наприкінці раунду рубіни на стежці та невзяті реліквії пропадають.

## Набори правил
- **Класика** (2005): 15 скарбів і 15 халеп (по 3: павуки, змії, лава, брили, тарани).
- **Реліквії** (2016): 5 реліквій у колоді від початку. 1-ша, 2-га і 3-тя реліквії,
  винесені з печери, варті 5 очок, 4-та і 5-та — 10 очок.
- **Варіант із реліквіями** (2021): на початку кожного раунду до колоди додають одну
  реліквію (5, 7, 8, 10, потім 12 очок); вона варта надрукованого числа.

## Кінець гри
Після 5-го раунду ваш рахунок — рубіни у скрині плюс реліквії.
Перемагає найвищий рахунок; **гравці з рівним рахунком ділять перемогу**.

## Налаштування
**Приховані скрині**: ніхто не бачить чужих скринь до кінця гри.
**Таймер**: коли час вийде, за вас вирішить комп'ютерний гравець, а ваше місце
буде позначене *відійшов*, доки ви не натиснете клавішу.

## Клавіші
`c` Углиб · `l` Назад (або ← → і Enter, або миша) · `p` ризик катастрофи ·
`g` журнал · `t` чат · `?`/F1 ці правила · `q` піти з-за столу.
"""

CATALOGUE: dict[str, str] = {
    "hazard.spiders": "павуки",
    "hazard.snakes": "змії",
    "hazard.lava": "лава",
    "hazard.boulders": "брили",
    "hazard.rams": "тарани",
    "hazard_short.spiders": "Павуки",
    "hazard_short.snakes": "Змії",
    "hazard_short.lava": "Лава",
    "hazard_short.boulders": "Брили",
    "hazard_short.rams": "Тарани",
    "card.treasure": "Скарб {value}",
    "card.hazard": "Халепа: {hazard}",
    "card.relic": "Реліквія",
    "card.relic_value": "Реліквія ({value})",
    "card.relic_short": "Релікв.",
    "card.taken_short": "взято",
    "path.empty": "У печері темно: зараз відкриють першу карту.",
    "rules.classic": "Класика",
    "rules.relics": "Реліквії",
    "rules.relic-variant": "Варіант із реліквіями",
    "rules.classic.long": "Класика (2005)",
    "rules.relics.long": "Реліквії (2016)",
    "rules.relic-variant.long": "Варіант із реліквіями (2021)",
    "rules.body": RULES,
    "table.waiting": "Чекаємо на початок гри…",
    "waiting.title": "Стіл {name}: чекаємо на гравців",
    "waiting.timer": "таймер рішення {seconds} с",
    "waiting.no_timer": "без таймера",
    "waiting.seat_free": "вільне місце",
    "waiting.you": "ви",
    "waiting.person": "гравець",
    "waiting.computer": "комп'ютер ({spec})",
    "waiting.free": "Вільних місць: {count}. Гра почнеться, щойно всі місця буде зайнято.",
    "table.round": "Раунд {round}/{rounds}",
    "table.card": "карта {step}",
    "table.entrances": "Печера:",
    "place.cave": "Печера",
    "place.camp": "Табір",
    "players.name": "Гравець",
    "players.place": "Де",
    "players.carried": "Несе",
    "players.chest": "Скриня",
    "players.relics": "Релік.",
    "players.status": "Хід",
    "players.decided": "обрав",
    "players.away": "відійшов",
    "players.computer": "(комп'ютер)",
    "deck.title": "Колода, карт: {count}",
    "deck.treasure": "Скарб {count} · {ruby}{rubies}",
    "deck.hazard": "Халепа {count}:",
    "deck.relic": "Реліквія {count}",
    "deck.seen": "Були: {hazards}",
    "deck.removed": "Вибули: {hazards}",
    "deck.chance": "Ризик катастрофи: {percent}%",
    "decision.continue": "Углиб",
    "decision.leave": "Назад",
    "decision.prompt": "Ваш хід: Углиб чи Назад?",
    "decision.chosen": "Ви обрали «{choice}»; можна змінити, доки не обрали всі.",
    "decision.in_camp": "Ви в таборі до наступного раунду.",
    "decision.waiting": "Чекаємо на наступну карту…",
    "decision.timer": "⏱ {seconds} с",
    "chat.placeholder": "Напишіть повідомлення й натисніть Enter",
    "chat.title": "Чат",
    "chat.spectator": "глядач",
    "confirm.leave": "Піти з-за столу, поки гра триває?",
    "confirm.yes": "Так [y]",
    "confirm.no": "Ні [n]",
    "too_small.enlarge": "Збільште термінал принаймні до {width}×{height}.\nДо того часу клавіші не діють.",
    "too_small.game_goes_on": "Гра тим часом триває.",
    "event.round_started": "Починається раунд {round}: усі заходять у печеру.",
    "event.relic_added": "До колоди додано реліквію вартістю {value}.",
    "event.treasure": "Скарб {value}: по {share}{ruby} кожному з {count} у печері, {remainder}{ruby} лишається на карті.",
    "event.hazard_first": "Халепа: {hazard}. Цього разу нічого не сталося…",
    "event.hazard_second": "Друга халепа: {hazard}!",
    "event.relic": "На стежці лежить реліквія.",
    "event.decided": "{name} вже обрав.",
    "event.continuing": "Углиб: {names}",
    "event.leaving": "Назад: {names}",
    "event.left": "{name} повертається до табору й кладе до скрині {banked}{ruby} (підібрано {picked}{ruby}).",
    "event.left_relics": "Забирає реліквії ({count}) на {points}.",
    "event.disaster": "КАТАСТРОФА! Друга халепа: {hazard}",
    "event.disaster_losses": "Втрати: {losses}.",
    "event.round_ended_disaster": "Раунд {round} закінчився катастрофою ({hazard}).",
    "event.round_ended_safe": "Раунд {round} закінчено: усі в таборі.",
    "event.game_ended": "Гру закінчено. Перемога: {names}!",
    "summary.title": "Раунд {round} з {rounds} закінчено",
    "summary.disaster": "КАТАСТРОФА! Друга халепа: {hazard}",
    "summary.safe": "Усі благополучно повернулися до табору.",
    "summary.cards": "Відкрито карт: {cards}",
    "summary.banked": "До скрині",
    "summary.score": "Рахунок",
    "summary.next": "Enter: назад до столу (наступний раунд почнеться сам).",
    "final.title": "Підсумковий рахунок",
    "final.winner": "Перемога: {names}",
    "final.winners": "Спільна перемога: {names}",
    "final.round_short": "Р{round}",
    "final.total": "Разом",
    "final.chart": "За раундами",
    "final.ended": "Кінець",
    "final.rematch": "Реванш [r]",
    "final.quit": "Вийти [q]",
    "setup.title": "◆ ДІАМАНТ ◆",
    "setup.subtitle": "Випробуйте долю: углиб чи назад із рубінами?",
    "setup.name": "Ваше ім'я",
    "setup.rules": "Правила",
    "setup.players": "Гравців",
    "setup.opponents": "Комп'ютерні гравці",
    "setup.timer": "Таймер рішення",
    "setup.timer_off": "Вимкнено",
    "setup.timer_seconds": "{seconds} с",
    "setup.hidden": "Приховані скрині",
    "setup.language": "Мова",
    "setup.yes": "Так",
    "setup.no": "Ні",
    "setup.start": "Грати ⏎",
    "setup.show_rules": "Правила [?]",
    "setup.name_missing": "Спершу введіть своє ім'я.",
    "level.beginner": "Новачок",
    "level.easy": "Легкий",
    "level.medium": "Середній",
    "level.hard": "Складний",
    "level.expert": "Експерт",
    "level.mixed": "Змішані (по одному)",
    "level.custom": "Обрані: {bots}",
    "key.continue": "Углиб",
    "key.leave": "Назад",
    "key.chance": "Ризик",
    "key.log": "Журнал",
    "key.chat": "Чат",
    "key.quit": "Вийти",
    "key.rules": "Правила",
    "key.close": "Закрити",
    "key.yes": "Так",
    "key.no": "Ні",
    "key.start": "Грати",
    "key.rematch": "Реванш",
    "key.continue_game": "До столу",
    # SSH server: the lobby, opening a table, and what the server tells a person
    "lobby.title": "◆ Діамант через SSH ◆ зала",
    "lobby.who_guest": "Ви — {name} (гість).",
    "lobby.who_key": "Ви — {name} (впізнані за SSH-ключем).",
    "lobby.language": "Мова: {language}",
    "lobby.resume": "Код повернення: {code} · ssh -t -p {port} HOST resume {code}",
    "lobby.col.table": "Стіл",
    "lobby.col.rules": "Правила",
    "lobby.col.people": "Люди",
    "lobby.col.computers": "Комп'ютери",
    "lobby.col.free": "Вільно",
    "lobby.col.timer": "Таймер",
    "lobby.col.status": "Стан",
    "lobby.status.waiting": "чекає",
    "lobby.status.playing": "грають",
    "lobby.status.finished": "завершено",
    "lobby.timer_off": "вимк.",
    "lobby.empty": "Столів ще немає: натисніть n, щоб відкрити стіл.",
    "lobby.choose_first": "Спершу виберіть стіл (або натисніть n, щоб відкрити новий).",
    "lobby.resume_prompt": "Ваш код повернення (показаний, коли ви сіли за стіл):",
    "lobby.key.join": "Сісти",
    "lobby.key.watch": "Дивитися",
    "lobby.key.new": "Новий стіл",
    "lobby.key.resume": "Код",
    "lobby.key.language": "Мова",
    "lobby.error.name": "{name} не годиться як назва столу: 1–20 літер, цифр, «_», «.» або «-».",
    "lobby.error.taken": "Стіл із назвою {name} уже є.",
    "lobby.error.too_many": "На сервері забагато відкритих столів; приєднайтеся до одного з них.",
    "lobby.error.settings": "З такими налаштуваннями стіл не відкрити: {reason}",
    "lobby.error.no_table": "Столу з назвою {name} немає.",
    "lobby.error.begun": "Гра за столом {name} уже почалася; натисніть w, щоб дивитися.",
    "lobby.error.full": "Стіл {name} повний; натисніть w, щоб дивитися.",
    "create.title": "Відкрити стіл",
    "create.name": "Назва",
    "create.seats": "Місць",
    "create.strength": "Їхній рівень",
    "create.open": "Відкрити стіл ⏎",
    "create.cancel": "Скасувати (Esc)",
    "create.no_seat_left": "{bots} комп'ютерних гравців на {seats} місць не лишають місця для вас.",
    "server.key.start": "Почати",
    "server.waiting_hint": "Натисніть s, щоб почати зараз: вільні місця займуть комп'ютерні гравці.",
    "server.only_creator": "Почати раніше може лише той, хто відкрив цей стіл.",
    "server.resume_title": "Якщо з'єднання обірветься",
    "server.resume_toast": "Ваш код повернення {code}: ssh -t -p {port} HOST resume {code}",
    "server.no_seat_for_code": "Жодне місце не чекає на код {code}.",
    "server.replaced": "Ви під'єдналися знову з іншого місця; це з'єднання закрито.",
    "server.idle": "Закрито після {minutes} хв бездіяльності в залі. Повертайтеся!",
    "server.stopping": "Сервер зупиняється; поточні ігри збережено. Дякуємо за гру!",
    "server.failed": "Вибачте, щось пішло не так (сеанс {session}); це записано в журнал.",
    "server.flood": "Забагато введення одразу (величезна вставка?): частину проігноровано.",
    "server.no_screenshots": "Знімки екрана недоступні через SSH.",
    "server.watching": "{name} (глядач)",
}
