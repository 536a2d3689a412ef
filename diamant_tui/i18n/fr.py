"""Textes français. Mots officiels (RULES.md) : Continuer, Sortir, Trésor, Danger, Relique,
Rubis, Diamant, Coffre, Campement, Grotte."""

RULES = """\
# Diamant — les règles

**But.** Explorer la grotte pendant **5 manches** et rapporter le plus de trésors.
Un rubis ♦ vaut 1, un diamant 5 : seuls les points comptent.

## Une manche
1. Tout le monde entre dans la grotte les mains vides. On mélange la pioche.
2. On retourne une carte et on l'ajoute au chemin :
   - **Trésor** *v* : les joueurs dans la grotte se le partagent également
     (*v* ÷ joueurs, arrondi vers le bas) ; le reste demeure **sur la carte**.
   - **Danger** : le premier d'un type ne fait rien. Un **deuxième danger du même
     type** est une **catastrophe** : ceux qui sont encore dans la grotte perdent
     ce qu'ils portent et la manche s'arrête. Une carte de ce danger quitte le jeu.
   - **Relique** : elle reste sur le chemin.
3. Chacun dans la grotte choisit en secret : **Continuer** (`c`) ou **Sortir** (`l`).
   Les choix sont révélés ensemble ; vous pouvez changer le vôtre tant que tous
   n'ont pas choisi.
4. Ceux qui sortent se partagent les rubis restés sur **tout le chemin** (le reste
   demeure). Si **un seul** joueur sort, il prend aussi **toutes les reliques** du
   chemin. Tout va dans son **coffre**, à l'abri. Il attend au campement la manche
   suivante.
5. Quand plus personne n'est dans la grotte, la manche s'arrête ; sinon on retourne
   la carte suivante.

À la fin d'une manche, les rubis restés sur le chemin et les reliques non prises
sont perdus.

## Règles du jeu
- **Classique** (2005) : 15 trésors et 15 dangers (3 de chaque : araignées,
  serpents, lave, éboulements, béliers).
- **Reliques** (2016) : 5 reliques sont dans la pioche dès le début. Les 1re, 2e et
  3e reliques sorties de la grotte valent 5 points, les 4e et 5e 10 points.
- **Variante reliques** (2021) : une relique est ajoutée à la pioche au début de
  chaque manche (5, 7, 8, 10 puis 12 points) ; elle vaut la valeur imprimée.

## Fin de la partie
Après la 5e manche, votre score est les rubis de votre coffre plus vos reliques.
Le meilleur score gagne ; **les ex æquo se partagent la victoire**.

## Options
**Coffres cachés** : personne ne voit les coffres des autres avant la fin.
**Minuteur** : à la fin du temps, un joueur ordinateur décide pour vous et votre
place est marquée *absent* jusqu'à ce que vous appuyiez sur une touche.

## Touches
`c` Continuer · `l` Sortir (ou ← → et Entrée, ou la souris) · `p` risque de
catastrophe · `g` journal · `t` discuter · `?`/F1 ces règles · `q` quitter la table.
"""

CATALOGUE: dict[str, str] = {
    "hazard.spiders": "araignées",
    "hazard.snakes": "serpents",
    "hazard.lava": "lave",
    "hazard.boulders": "éboulement",
    "hazard.rams": "béliers",
    "hazard_short.spiders": "Araign.",
    "hazard_short.snakes": "Serpent",
    "hazard_short.lava": "Lave",
    "hazard_short.boulders": "Éboul.",
    "hazard_short.rams": "Béliers",
    "hazard_abbr.spiders": "Ar",
    "hazard_abbr.snakes": "Se",
    "hazard_abbr.lava": "La",
    "hazard_abbr.boulders": "Éb",
    "hazard_abbr.rams": "Bé",
    "card.treasure": "Trésor {value}",
    "card.hazard": "Danger : {hazard}",
    "card.relic": "Relique",
    "card.relic_value": "Relique ({value})",
    "card.relic_short": "Relique",
    "card.taken_short": "prise",
    "path.empty": "La grotte est sombre : la première carte va être retournée.",
    "rules.classic": "Classique",
    "rules.relics": "Reliques",
    "rules.relic-variant": "Variante reliques",
    "rules.classic.long": "Classique (2005)",
    "rules.relics.long": "Reliques (2016)",
    "rules.relic-variant.long": "Variante reliques (2021)",
    "rules.body": RULES,
    "table.waiting": "En attente du début de la partie…",
    "waiting.title": "Table {name} : en attente des joueurs",
    "waiting.timer": "minuteur {seconds} s",
    "waiting.no_timer": "sans minuteur",
    "waiting.seat_free": "place libre",
    "waiting.you": "vous",
    "waiting.person": "joueur",
    "waiting.computer": "ordinateur ({spec})",
    "waiting.free": "Places libres : {count}. La partie commence quand toutes les places sont prises.",
    "table.round": "Manche {round}/{rounds}",
    "table.card": "carte {step}",
    "table.entrances": "Grotte :",
    "place.cave": "Grotte",
    "place.camp": "Campement",
    "players.name": "Joueur",
    "players.place": "Où",
    "players.carried": "Porte",
    "players.chest": "Coffre",
    "players.relics": "Reliq.",
    "players.status": "Tour",
    "players.decided": "a choisi",
    "players.away": "absent",
    "players.computer": "(ordinateur)",
    "deck.title": "Pioche : {count} cartes",
    "deck.treasure": "Trésor {count} · {ruby}{rubies}",
    "deck.hazard": "Danger {count} :",
    "deck.relic": "Relique {count}",
    "deck.seen": "Vus : {hazards}",
    "deck.removed": "Retirés : {hazards}",
    "deck.chance": "Catastrophe : {percent} %",
    "decision.continue": "Continuer",
    "decision.leave": "Sortir",
    "decision.prompt": "À vous : Continuer ou Sortir ?",
    "decision.chosen": "Choix : {choice} ; modifiable tant que tous n'ont pas choisi.",
    "decision.in_camp": "Au campement jusqu'à la prochaine manche.",
    "decision.waiting": "En attente de la prochaine carte…",
    "decision.timer": "⏱ {seconds} s",
    "chat.placeholder": "Écrivez un message puis Entrée",
    "chat.title": "Discussion",
    "log.title": "Journal de la partie",
    "log.close": "g : fermer",
    "confirm.leave": "Quitter cette table alors que la partie continue ?",
    "confirm.yes": "Oui [y]",
    "confirm.no": "Non [n]",
    "too_small.enlarge": "Agrandissez votre terminal à au moins {width}×{height}.\nD'ici là, les touches sont sans effet.",
    "too_small.game_goes_on": "La partie continue en attendant.",
    "event.round_started": "La manche {round} commence : tout le monde entre dans la grotte.",
    "event.round_started_relic": "La manche {round} commence ; une relique de {value} rejoint la pioche.",
    "event.treasure": "Trésor {value} : {share}{ruby} chacun pour {players} dans la grotte, {left}.",
    "event.left_on_card": "{count}{ruby} reste sur la carte|{count}{ruby} restent sur la carte",
    "event.hazard_first": "Danger : {hazard}. Rien ne se passe… pour cette fois.",
    "event.hazard_second": "Un deuxième danger : {hazard} !",
    "event.relic": "Une relique gît sur le chemin.",
    "event.decided": "{name} a choisi.",
    "event.continuing": "Continuer : {names}",
    "event.leaving": "Sortir : {names}",
    "event.continuing_count": "Continuer : {count} joueur|Continuer : {count} joueurs",
    "event.leaving_count": "Sortir : {count} joueur|Sortir : {count} joueurs",
    "event.left": "{name} rentre au campement et met {banked}{ruby} au coffre.",
    "event.left_picked": "{name} rentre au campement et met {banked}{ruby} au coffre ({picked}{ruby} du chemin).",
    "event.left_relics": "{name} rentre au campement avec {banked}{ruby} et {relics}.",
    "event.left_picked_relics": "{name} met au coffre {banked}{ruby} ({picked}{ruby} du chemin) et {relics}.",
    "event.relics": "{count} relique valant {points}|{count} reliques valant {points}",
    "event.disaster": "CATASTROPHE ! Deuxième danger : {hazard}",
    "event.disaster_losses": "Perdu : {losses}.",
    "event.disaster_losses_count": "{count} joueur perd {rubies}{ruby}.|{count} joueurs perdent {rubies}{ruby}.",
    "event.round_ended_disaster": "La manche {round} finit en catastrophe ({hazard}).",
    "event.round_ended_safe": "La manche {round} est finie : tout le monde est au campement.",
    "event.game_ended": "Partie terminée. Victoire : {names} !",
    "event.game_ended_count": "Partie terminée : {count} joueurs se partagent la victoire !",
    "summary.title": "La manche {round} sur {rounds} est finie",
    "summary.disaster": "CATASTROPHE ! Deuxième danger : {hazard}",
    "summary.safe": "Tout le monde est rentré au campement sain et sauf.",
    "summary.cards": "Cartes retournées : {cards}",
    "summary.banked": "Rubis",
    "summary.relics": "Reliques",
    "summary.score": "Score",
    "summary.next": "Entrée : retour à la table (la manche suivante démarre seule).",
    "final.title": "Scores finaux",
    "final.winner": "Victoire : {names}",
    "final.winners": "Victoire partagée : {names}",
    "final.round_short": "M{round}",
    "final.total": "Total",
    "final.chart": "Au fil des manches",
    "final.ended": "Fin",
    "final.rematch": "Revanche [r]",
    "final.quit": "Quitter [q]",
    "setup.title": "◆ DIAMANT ◆",
    "setup.subtitle": "Tentez votre chance : continuer, ou sortir avec vos rubis ?",
    "setup.name": "Votre nom",
    "setup.rules": "Règles",
    "setup.players": "Joueurs",
    "setup.opponents": "Joueurs ordinateur",
    "setup.timer": "Minuteur",
    "setup.timer_off": "Aucun",
    "setup.timer_seconds": "{seconds} s",
    "setup.hidden": "Coffres cachés",
    "setup.language": "Langue",
    "setup.yes": "Oui",
    "setup.no": "Non",
    "setup.start": "Jouer ⏎",
    "setup.show_rules": "Règles [?]",
    "setup.name_missing": "Tapez d'abord votre nom.",
    "level.beginner": "Débutant",
    "level.easy": "Facile",
    "level.medium": "Moyen",
    "level.hard": "Difficile",
    "level.expert": "Expert",
    "level.mixed": "Mélangés (un de chaque)",
    "level.custom": "Choisis : {bots}",
    "level.custom_more": "{bots} et {count} autre|{bots} et {count} autres",
    "key.continue": "Continuer",
    "key.leave": "Sortir",
    "key.chance": "Risque",
    "key.log": "Journal",
    "key.chat": "Discuter",
    "key.quit": "Quitter",
    "key.rules": "Règles",
    "key.close": "Fermer",
    "key.yes": "Oui",
    "key.no": "Non",
    "key.start": "Jouer",
    "key.rematch": "Revanche",
    "key.continue_game": "Retour à la table",
    # SSH server: the lobby, opening a table, and what the server tells a person
    "lobby.title": "◆ Diamant par SSH ◆ le salon",
    "lobby.who_guest": "Vous êtes {name} (invité).",
    "lobby.who_key": "Vous êtes {name} (reconnu par votre clé SSH).",
    "lobby.language": "Langue : {language}",
    "lobby.resume": "Code de reprise : {code} · {command}",
    "lobby.col.table": "Table",
    "lobby.col.rules": "Règles",
    "lobby.col.people": "Personnes",
    "lobby.col.computers": "Ordinateurs",
    "lobby.col.free": "Libres",
    "lobby.col.timer": "Minuteur",
    "lobby.col.status": "État",
    "lobby.status.waiting": "en attente",
    "lobby.status.playing": "en cours",
    "lobby.status.finished": "terminée",
    "lobby.timer_off": "aucun",
    "lobby.empty": "Aucune table pour l'instant : appuyez sur n pour en ouvrir une.",
    "lobby.choose_first": "Choisissez d'abord une table (ou appuyez sur n pour en ouvrir une).",
    "lobby.resume_prompt": "Votre code de reprise (donné quand vous vous êtes assis) :",
    "lobby.key.join": "Rejoindre",
    "lobby.key.watch": "Regarder",
    "lobby.key.new": "Nouvelle",
    "lobby.key.resume": "Reprise",
    "lobby.key.language": "Langue",
    "lobby.error.name": "{name} ne peut pas nommer une table : de 1 à 20 lettres, chiffres, « _ », « . » ou « - ».",
    "lobby.error.taken": "Il existe déjà une table nommée {name}.",
    "lobby.error.too_many": "Le serveur a trop de tables ouvertes ; rejoignez-en une.",
    "lobby.error.settings": "Ces réglages ne permettent pas d'ouvrir une table : {reason}",
    "lobby.error.no_table": "Il n'y a pas de table nommée {name}.",
    "create.title": "Ouvrir une table",
    "create.name": "Nom",
    "create.seats": "Places",
    "create.strength": "Leur niveau",
    "create.open": "Ouvrir la table ⏎",
    "create.cancel": "Annuler (Échap)",
    "create.no_seat_left": "Avec {bots} joueurs ordinateur sur {seats} places, il n'en reste aucune pour vous.",
    "server.no_seat_for_code": "Aucune place n'attend le code {code}.",
    "server.replaced": "Vous vous êtes reconnecté ailleurs ; cette connexion est fermée.",
    "server.idle": "Fermé après {minutes} minutes d'inactivité dans le salon. À bientôt !",
    "server.stopping": "Le serveur s'arrête ; les parties en cours ont été enregistrées. Merci d'avoir joué !",
    "server.failed": "Désolé, une erreur s'est produite (session {session}) ; elle a été consignée.",
    "server.flood": "Trop de saisie d'un coup (un long collage ?) : une partie a été ignorée.",
    "server.no_screenshots": "Les captures d'écran ne sont pas disponibles par SSH.",
    # Fair tables: waiting room, spectators, rematch votes, unavailable tables, help.
    "waiting.start_hint": "Appuyez sur s pour commencer : des joueurs ordinateur prennent les places libres.",
    "waiting.creator_can_start": "{name} a ouvert cette table et peut lancer la partie.",
    "key.start_now": "Commencer",
    "watching.note": "Vous regardez la partie : t discuter · q retour au salon",
    "chat.watching": "{name} (spect.)",
    "final.votes": "Revanche : {votes}",
    "final.vote_hint": "Appuyez sur r pour demander une revanche ; elle commence quand tous sont d'accord.",
    "final.voted": "Vous demandez une revanche ; en attente des autres.",
    "final.watching": "Vous regardez : les joueurs décident d'une revanche.",
    "unavailable.full": "La table {name} est complète.",
    "unavailable.begun": "La partie de la table {name} a déjà commencé.",
    "unavailable.finished": "La partie de la table {name} est terminée.",
    "unavailable.hint": "Vous pouvez la regarder, ou revenir au salon et choisir une autre table.",
    "unavailable.watch": "Regarder [w]",
    "unavailable.back": "Salon [Échap]",
    "key.watch": "Regarder",
    "key.lobby": "Salon",
    "help.resume": "Votre code de reprise est {code}. Si la connexion tombe : {command}",
    # limits: part A
    "limit.a.flood": "Les touches arrivent plus vite que personne ne tape : celles en trop sont ignorées. Si cela continue, la session sera fermée.",
    "limit.a.flood_closed": 'Session fermée : trop de touches ou de clics de souris pendant trop longtemps. Reconnectez-vous et tapez à un rythme normal.',
    # limits: part B
    "limit.b.server_sessions": "Le serveur a autant de sessions ouvertes qu'il peut en accueillir ({limit}) ; réessayez dans quelques minutes.",
    "limit.b.address_sessions": "Au plus {limit} sessions à la fois depuis une même adresse : fermez-en une, puis reconnectez-vous.",
    "limit.b.person_sessions": "Vous avez déjà autant de sessions ouvertes qu'une personne peut en avoir ({limit}) : fermez-en une, puis reconnectez-vous.",
    "limit.b.tables_per_person": "Vous avez déjà autant de tables ouvertes qu'une personne peut en avoir ({limit}) : rejoignez l'une d'elles, ou attendez qu'une se ferme, avant d'en ouvrir une autre.",
    "limit.b.waiting": "Fermé après {minutes} minutes à la table {name} sans partie en cours. Revenez quand tout le monde sera prêt à jouer !",
    "limit.watchers": "La table {name} a autant de spectateurs qu'une table peut en avoir ({limit}) : regardez une autre table, ou réessayez plus tard.",
    # limits: part C
    "limit.c.chat_person": "Attendez {seconds} s avant de reparler : au plus {lines} lignes toutes les {window} s chacun.",
    "limit.c.chat_watchers": "Attendez {seconds} s avant de reparler : les spectateurs ont épuisé leur part ({lines} lignes toutes les {window} s).",
    "limit.c.chat_table": "Attendez {seconds} s avant de reparler : la discussion de cette table est pleine ({lines} lignes toutes les {window} s en tout).",
    "limit.c.resume_wait": "Trop de codes de reprise erronés depuis votre adresse : réessayez dans {seconds} s.",
    "limit.c.taken_over": "Votre place a été reprise avec votre code de reprise depuis une autre connexion ; cette connexion est fermée.",
}
