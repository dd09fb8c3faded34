import math


def _bgn_sigmoid(x):
    if x > 35.0:
        return 1.0
    if x < -35.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _bgn_opponent_unit_values(pool, mine, offers, player_id):
    """Guess the opponent's per-unit values from what it kept in its own offers
    (public information only) plus the rule that a kind worthless to me is worth
    something to the opponent."""
    keep = [0.0, 0.0, 0.0]
    total_w = 0.0
    j = 0
    for o in offers:
        if o["proposer"] != player_id:
            q = o["quantities"]
            wt = 1.0 + 0.5 * j  # later offers reveal more (concessions)
            j += 1
            for i in range(3):
                keep[i] += wt * (q[i] / float(pool[i]))
            total_w += wt
    shares = []
    for i in range(3):
        frac = keep[i] / total_w if total_w > 0 else 0.5
        s = pool[i] * (0.3 + frac)
        if mine[i] == 0:
            s *= 2.5
        shares.append(s)
    tot = sum(shares)
    if tot <= 0:
        tot = 1.0
    return [10.0 * shares[i] / tot / pool[i] for i in range(3)]


def policy_prior(state, player_id):
    legal = get_legal_actions(state)
    if not legal:
        return {}
    legal_set = set(legal)
    obs = get_observations(state)[player_id]
    pool = list(obs["pool"])
    v = list(obs["my_values"])
    offers = obs["offers"]
    n = len(offers)  # my offer, if I make one, is offer index n

    w_opp = _bgn_opponent_unit_values(pool, v, offers, player_id)

    table_val = None     # what I get if I agree now
    my_last_val = None   # what I asked for last time
    if n > 0:
        last = offers[-1]["quantities"]
        table_val = sum(v[i] * (pool[i] - last[i]) for i in range(3))
        for o in reversed(offers):
            if o["proposer"] == player_id:
                q = o["quantities"]
                my_last_val = sum(v[i] * q[i] for i in range(3))
                break

    # Opponent answers my offer at step n+1; its demands fall as time runs out.
    if n + 1 >= 9:
        opp_thr, opp_scale = 0.5, 0.6   # its last chance: anything > 0 beats nothing
    else:
        opp_thr, opp_scale = 6.5 - 0.45 * (n + 1), 1.3
    # What I expect if my offer is refused.
    cont = 0.0 if n >= 8 else max(0.0, 3.5 - 0.4 * n)

    B, H, K = pool
    cands = []
    best = -1e9
    for b in range(B + 1):
        for h in range(H + 1):
            for k in range(K + 1):
                gain = v[0] * b + v[1] * h + v[2] * k
                if n >= 9:
                    eu = 0.0  # the 10th offer can never be accepted
                else:
                    opp = w_opp[0] * (B - b) + w_opp[1] * (H - h) + w_opp[2] * (K - k)
                    p = _bgn_sigmoid((opp - opp_thr) / opp_scale)
                    eu = p * gain + (1.0 - p) * cont
                cands.append(((b, h, k), gain, eu))
                if eu > best:
                    best = eu

    res = {}
    temp = 0.6
    for q, gain, eu in cands:
        a = _offer_str(q)
        if a not in legal_set:
            continue
        if n >= 9:
            wt = 1e-3
        else:
            wt = math.exp((eu - best) / temp) + 1e-3
            if table_val is not None and gain <= table_val:
                wt *= 0.05  # agreeing already gives me at least this
        res[a] = wt

    if "Agree" in legal_set and table_val is not None:
        S = sum(res.values())
        if S <= 0:
            S = 1.0
        if n >= 9:
            res["Agree"] = S * (1000.0 if table_val > 0 else 1.0)
        else:
            my_thr = 6.5 - 0.45 * n
            thr = 0.5 * my_thr + 0.5 * best
            p = _bgn_sigmoid((table_val - thr) / 0.7)
            if my_last_val is not None and table_val >= my_last_val and table_val > 0:
                p = max(p, 0.99)
            if table_val >= 10:
                p = 0.995
            p = min(max(p, 0.02), 0.995)
            res["Agree"] = S * p / (1.0 - p)

    if not res or sum(res.values()) <= 0:
        return {a: 1.0 for a in legal}
    return res
