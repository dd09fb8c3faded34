import math


def _bgp_sig(x):
    if x > 35.0:
        return 1.0
    if x < -35.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _bgp_opp_unit_values(pool, v, offers, player_id):
    """Estimate the opponent's per-unit values from what it kept in its own offers."""
    fsum = [0.0, 0.0, 0.0]
    wsum = 0.0
    idx = 0
    for o in offers:
        if o["proposer"] != player_id:
            q = o["quantities"]
            wt = 1.0 + 0.5 * idx  # later offers are more informative (concessions)
            idx += 1
            for i in range(3):
                fsum[i] += wt * (q[i] / float(pool[i]))
            wsum += wt
    shares = []
    for i in range(3):
        f = fsum[i] / wsum if wsum > 0 else 0.5
        base = pool[i] * (0.3 + f)
        if v[i] == 0:
            base *= 2.5  # a kind worthless to me must be worth something to the opponent
        shares.append(base)
    ssum = sum(shares)
    if ssum <= 0:
        ssum = 1.0
    return [10.0 * shares[i] / ssum / pool[i] for i in range(3)]


def policy_prior(state, player_id):
    legal = get_legal_actions(state)
    if not legal:
        return {}
    legal_set = set(legal)
    obs = get_observations(state)[player_id]
    pool = list(obs["pool"])
    v = list(obs["my_values"])
    offers = obs["offers"]
    n = len(offers)

    w = _bgp_opp_unit_values(pool, v, offers, player_id)

    # Value of the offer currently on the table (to me), and of my own last offer.
    table_val = None
    my_last_val = None
    if n > 0:
        last = offers[-1]["quantities"]
        table_val = sum(v[i] * (pool[i] - last[i]) for i in range(3))
        for o in reversed(offers):
            if o["proposer"] == player_id:
                q = o["quantities"]
                my_last_val = sum(v[i] * q[i] for i in range(3))
                break

    # Opponent's acceptance threshold when it answers my offer (index n, answered at n+1).
    if n + 1 >= 9:
        othr, oscale = 0.5, 0.6  # opponent's last chance: anything positive beats 0
    else:
        othr, oscale = 6.5 - 0.45 * (n + 1), 1.3
    # What I expect if my offer is rejected.
    if n >= 8:
        cont = 0.0
    else:
        cont = max(0.0, 3.5 - 0.4 * n)

    items = []
    best = -1e9
    B, H, K = pool
    for b in range(B + 1):
        for h in range(H + 1):
            for k in range(K + 1):
                mine = v[0] * b + v[1] * h + v[2] * k
                if n >= 9:
                    eu = 0.0  # the 10th offer can never be accepted
                else:
                    opp = w[0] * (B - b) + w[1] * (H - h) + w[2] * (K - k)
                    p = _bgp_sig((opp - othr) / oscale)
                    eu = p * mine + (1.0 - p) * cont
                items.append(((b, h, k), mine, eu))
                if eu > best:
                    best = eu

    res = {}
    T = 0.6
    for q, mine, eu in items:
        a = _offer_str(q)
        if a not in legal_set:
            continue
        wt = math.exp((eu - best) / T) + 1e-3
        if table_val is not None and mine <= table_val:
            wt *= 0.05  # agreeing already gives at least this much
        if n >= 9:
            wt = 1e-3
        res[a] = wt

    if "Agree" in legal_set and table_val is not None:
        S = sum(res.values())
        if S <= 0:
            S = 1.0
        if n >= 9:
            # Last chance: any positive deal beats walking away with 0.
            res["Agree"] = S * (1000.0 if table_val > 0 else 1.0)
        else:
            my_thr = 6.5 - 0.45 * n
            thr = 0.5 * my_thr + 0.5 * best
            p = _bgp_sig((table_val - thr) / 0.7)
            if my_last_val is not None and table_val >= my_last_val and table_val > 0:
                p = max(p, 0.99)
            if table_val >= 10:
                p = 0.995
            p = min(max(p, 0.02), 0.995)
            res["Agree"] = S * p / (1.0 - p)

    if not res or sum(res.values()) <= 0:
        return {a: 1.0 for a in legal}
    return res
