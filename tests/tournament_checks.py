"""The tournament's rules and standings checked the plain way, from its journal alone: the
pairings (no rematch, no second bye, everyone playing paired once, colours within 2 and never
three alike in a row) and the standings recomputed by loops (points, Buchholz,
Sonneborn-Berger, direct encounter)."""


def check_rules(t):
    """The Swiss rules, read from the journal's pairings alone."""
    met, byes, seats = set(), [], {pid: [] for pid in t.players}
    for event in t.events:
        if event["type"] != "pairing":
            continue
        paired = set()
        for game in event["games"]:
            pair = frozenset((game["first"], game["second"]))
            assert pair not in met, f"a rematch in round {event['round']}: {pair}"
            met.add(pair)
            seats[game["first"]].append("F")
            seats[game["second"]].append("S")
            paired |= pair
        if event["bye"] is not None:
            assert event["bye"] not in byes, f"a second bye in round {event['round']}"
            byes.append(event["bye"])
            paired.add(event["bye"])
        playing = {p["id"] for p in t.playing(event["round"])}
        assert paired == playing, f"round {event['round']}: not everyone playing is paired once"
        assert len(event["games"]) + (event["bye"] is not None) == (len(playing) + 1) // 2
    for pid, taken in seats.items():
        assert abs(taken.count("F") - taken.count("S")) <= 2, (pid, taken)
        assert not any(a == b == c for a, b, c in zip(taken, taken[1:], taken[2:])), (pid, taken)
    return met, byes


def plain_standings(t):
    """Points, Buchholz, Sonneborn-Berger and direct encounter, by a plain loop over the journal."""
    bye_points = t.settings["bye"] / 2
    games, points = [], {p["name"]: 0.0 for p in t.players.values()}
    name = {p["id"]: p["name"] for p in t.players.values()}
    pairs, results = {}, {}
    for event in t.events:
        if event["type"] == "pairing":
            for game in event["games"]:
                pairs[(event["round"], game["number"])] = (name[game["first"]], name[game["second"]])
            if event["bye"] is not None:
                points[name[event["bye"]]] += bye_points
        elif event["type"] in ("result", "correction"):
            results[(event["round"], event["number"])] = {2: 1.0, 1: 0.5, 0: 0.0}[event["score"]]
    for key, first_score in results.items():
        first, second = pairs[key]
        games.append((first, second, first_score))
        points[first] += first_score
        points[second] += 1 - first_score
    buchholz = {p: 0.0 for p in points}
    sb = {p: 0.0 for p in points}
    for first, second, score in games:
        buchholz[first] += points[second]
        buchholz[second] += points[first]
        sb[first] += score * points[second]
        sb[second] += (1 - score) * points[first]
    direct = {}
    for p in points:
        level = [q for q in points if (points[q], buchholz[q], sb[q]) == (points[p], buchholz[p], sb[p])]
        direct[p] = sum(s for a, b, s in games if a == p and b in level) \
            + sum(1 - s for a, b, s in games if b == p and a in level) if len(level) > 1 else 0.0
    return points, buchholz, sb, direct
