"""End to end in headless Chromium (Debian's ``chromium`` through Playwright): a full game
of tic-tac-toe and of Kuhn poker against random, the opponent's card never in the page, and
the match viewer. Screenshots go to the test's folder, or to ``$GGP_WEB_SCREENSHOTS`` (the
docs' screenshots: ``GGP_WEB_SCREENSHOTS=docs/web pytest tests/web/test_web_browser.py``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

playwright = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright (pip install playwright)")


def find_chromium() -> str | None:
    for name in (os.environ.get("GGP_CHROMIUM", ""), "chromium", "chromium-browser",
                 "google-chrome", "chrome"):
        found = name and shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (apt-get install chromium, or set "
    "GGP_CHROMIUM); scripts/test.sh installs it when run as root with apt-get")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        except playwright.Error as exc:
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(exc).splitlines()[0]}")
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 860, "height": 640})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("GGP_WEB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        return path

    return take


def _start(page, url: str, game: str, seat: int = 0, opponent: str = "random") -> None:
    page.goto(url)  # the login URL: the server's token, kept in a cookie from here on
    page.wait_for_selector(f"#game option[value='{game}']", state="attached")
    page.select_option("#game", game)
    page.select_option("#seat", str(seat))
    page.fill("#opponents input", opponent)
    page.click("#start")
    page.wait_for_selector("#match", state="visible")  # the match exists on the server


def _wait_decision(page) -> str:
    page.wait_for_function(
        "['your_turn', 'over', 'error'].includes(document.body.dataset.status)")
    return page.evaluate("document.body.dataset.status")


def test_tic_tac_toe_in_the_browser(web_server, page, shots):
    server = web_server()
    _start(page, server.login_url, "tic_tac_toe", seat=0)
    moves, clicked = 0, []
    while _wait_decision(page) == "your_turn":
        assert page.locator("table.grid td").count() == 9
        buttons = page.locator("#moves button.move")
        assert buttons.count() == 9 - 2 * moves  # x and o alternate; one cell per move
        if moves == 2:
            shots(page, "play-tic-tac-toe")
        playable = page.locator("table.grid td.playable")
        assert playable.count() == buttons.count()  # every empty cell is a move
        if moves % 2:
            clicked.append(playable.first.get_attribute("title"))
            playable.first.click()  # a click on the board plays the cell's move
        else:
            buttons.first.click()
        moves += 1
        page.wait_for_function("document.body.dataset.status !== 'your_turn'")
    assert page.evaluate("document.body.dataset.status") == "over"
    assert page.locator("#result h3").inner_text() == "Final returns"
    returns = page.locator("#result table tr").all_inner_texts()
    assert len(returns) == 2 and any("random" in r for r in returns)
    # the board holds the moves that were played, all of them
    marks = [t for t in page.locator("table.grid td").all_inner_texts() if t]
    assert marks.count("x") == moves and 5 <= len(marks) <= 9
    played = page.locator("#history-list li b").all_text_contents()  # (collapsed)
    assert len(played) == moves and clicked and all(m in played for m in clicked)
    shots(page, "play-tic-tac-toe-over")


def test_kuhn_poker_in_the_browser_never_shows_the_opponents_card(web_server, page, shots):
    server = web_server()
    answers: list[dict] = []

    def keep(response) -> None:
        if "/api/play" in response.url:
            try:
                answers.append(response.json())
            except Exception:  # noqa: BLE001 - not JSON: not a view
                pass

    page.on("response", keep)
    _start(page, server.login_url, "kuhn_poker", seat=1)
    session = next(iter(server.app.state.sessions.values()))
    decisions = 0
    while _wait_decision(page) == "your_turn":
        deal = [s["action"].split()[-1] for s in session._steps if s["player"] == -1]
        mine, theirs = deal[1], deal[0]
        shown = page.locator(".card").all_inner_texts()
        assert shown == [mine], shown  # own card only
        assert f'"{theirs}"' not in page.locator("#raw-json").inner_text()
        assert page.locator("#moves button.move").count() == 2
        if decisions == 0:
            shots(page, "play-kuhn-poker")
        page.locator("#moves button.move").last.click()  # Bet, then Bet/Call
        decisions += 1
        page.wait_for_function("document.body.dataset.status !== 'your_turn'")
    assert decisions >= 1
    assert page.evaluate("document.body.dataset.status") == "over"
    final = session.view()
    for answer in answers:
        if answer.get("status") != "over":
            # the rules text is the game's, the same in every answer (it names cards)
            assert answer.get("rules", final["rules"]) == final["rules"]
            text = json.dumps({k: v for k, v in answer.items() if k != "rules"})
            assert f'"{theirs}"' not in text and "Deal" not in text
    if final["observation"]["showdown_cards"] is None:  # a fold: never revealed
        assert theirs not in page.locator(".card").all_inner_texts()
        assert f'"{theirs}"' not in page.content()
    assert page.locator("#result h3").inner_text() == "Final returns"
    # the end says who won, with the person's return; the rules were there all along
    outcome = page.locator("#outcome").inner_text()
    assert outcome.startswith(("You won", "You lost", "Draw"))
    assert f"{final['returns'][1]:+g}" in outcome
    page.locator("#rules summary").click()
    assert "showdown" in page.locator("#rules-text").inner_text()
    shots(page, "play-kuhn-poker-over")


def test_leduc_to_the_end_shows_rules_betting_and_outcome(web_server, page):
    server = web_server()
    _start(page, server.login_url, "leduc_poker", seat=0)
    _wait_decision(page)
    page.locator("#rules summary").click()  # the rules, from the first move on
    assert "Leduc" in page.locator("#rules-text").inner_text()
    decisions = 0
    while _wait_decision(page) == "your_turn":
        page.locator("#moves button.move", has_text="Call").first.click()  # never fold
        decisions += 1
        page.wait_for_function("document.body.dataset.status !== 'your_turn'")
    assert decisions >= 1 and page.evaluate("document.body.dataset.status") == "over"
    betting = page.locator("table.fields tr", has_text="betting").inner_text()
    assert "round 1: player 0: Call" in betting and "[[" not in betting  # a readable log
    outcome = page.locator("#outcome").inner_text()
    assert outcome.startswith(("You won", "You lost", "Draw")) and "your return" in outcome


def test_the_viewer_steps_through_an_arena_match(web_server, page, shots, tmp_path):
    from ggp.arena.report import write_report
    from ggp.arena.tournament import TournamentConfig, run_tournament

    out = tmp_path / "arena-ttt"
    run_tournament(TournamentConfig(games=["tic_tac_toe"], agents=["mcts:sims=20"],
                                    opponents=["random"], matches=2, seed=0), out, workers=0)
    write_report(out)
    server = web_server()
    page.goto(f"{server.url}viewer?path={out}&token={server.token}")
    page.wait_for_selector("#state table.grid")
    assert page.locator("#match-select option").count() == 4
    assert page.locator("#state table.grid td").all_inner_texts() == [""] * 9
    page.click("#next")
    page.click("#next")
    assert "step 3 of" in page.locator("#step-text").inner_text()
    assert sum(1 for t in page.locator("#state table.grid td").all_inner_texts() if t) == 2
    assert page.locator("#player-views h3").count() == 2
    page.wait_for_function("Array.from(document.querySelectorAll('#plot-list img'))"
                           ".every((i) => i.complete && i.naturalWidth > 0)")
    assert page.locator("#plot-list img").count() >= 1
    shots(page, "viewer-arena")


def test_a_four_player_card_game_shows_the_hand_as_cards(web_server, page, shots):
    server = web_server()
    page.goto(server.login_url)
    page.wait_for_selector("#game option[value='hearts']", state="attached")
    page.select_option("#game", "hearts")
    assert page.locator("#opponents input").count() == 3  # one agent per other seat
    page.select_option("#seat", "2")
    page.click("#start")
    page.wait_for_selector("#match", state="visible")
    assert _wait_decision(page) == "your_turn"
    session = next(iter(server.app.state.sessions.values()))
    hand = session.view()["observation"]["hand"]
    cards = page.locator(".cards").filter(has_text="hand").locator(".card")
    assert cards.count() == len(hand) == 13
    assert sorted(cards.evaluate_all("cs => cs.map(c => c.title)")) == sorted(hand)
    red = cards.evaluate_all("cs => cs.filter(c => c.classList.contains('red')).length")
    assert red == sum(1 for c in hand if c[-1] in "HD")
    shots(page, "play-hearts")
    page.click("#leave")
    page.wait_for_selector("#setup", state="visible")
    assert not server.app.state.sessions  # leaving ends the match and its agents


def test_many_legal_moves_get_a_text_box(web_server, page):
    server = web_server()
    _start(page, server.login_url, "generalized_tic_tac_toe", seat=0)
    assert _wait_decision(page) == "your_turn"
    assert page.locator("#moves button.move").count() == 0  # 36 moves: a text box instead
    assert page.locator("table.grid td.playable").count() == 36  # and the board's cells
    page.fill("#move-input", "x(9,9)")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.getElementById('move-error').textContent !== ''")
    assert "not a legal move" in page.locator("#move-error").inner_text()
    page.fill("#move-input", "x(2,3)")
    page.click("#move-go")
    page.wait_for_function("document.body.dataset.status !== 'your_turn'")
    assert _wait_decision(page) == "your_turn"
    cells = page.locator("table.grid tr").nth(3).locator("td").all_inner_texts()
    assert cells[3] == "x"


@pytest.mark.parametrize("game,playable", [("connect_four", 42), ("generalized_chess", 0)])
def test_board_cells_are_moves_only_where_a_move_names_the_cell(web_server, page, game,
                                                                playable):
    server = web_server()
    _start(page, server.login_url, game, seat=0)
    assert _wait_decision(page) == "your_turn"
    assert page.locator("table.grid td.playable").count() == playable
    if playable:  # connect four: a click anywhere in a column drops into it
        page.locator("table.grid tr").nth(1).locator("td").nth(4).click()
        page.wait_for_function("document.body.dataset.status !== 'your_turn'")
        assert _wait_decision(page) == "your_turn"
        bottom = page.locator("table.grid tr").last.locator("td").all_inner_texts()
        assert bottom[4] == "x"
