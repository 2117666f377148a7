/* The whole-turn composer of the player page (templates/play/_composer.html).
 *
 * A progressive enhancement: without JavaScript the page's plain list of choices is a form that plays
 * one decision per POST.  With it, the list gives way to the composer: the first steps as buttons, then
 * the chosen step's choices; each step is previewed through the JSON play API (POST .../preview, which
 * writes nothing) and the predicted board replaces the board above; "Undo last step" takes one back;
 * "Confirm turn" POSTs every step at once (all or nothing); its answer is the position the turn led to,
 * kept for the reloaded page to start from without asking again.  The API is authenticated by the token in
 * its address alone: no cookie is sent.
 */
(function () {
  "use strict";

  var noteKey = "riftpost-composer-note:" + location.pathname;
  // The answer of the turn just confirmed: the position it led to, as GET answers it (the play API's
  // POST answers the same fields), so the reloaded page starts from it without asking again.
  var answerKey = "riftpost-composer-answer:" + location.pathname;
  showKeptNote();  // after a reload, whether or not there is anything to compose now
  var keptAnswer = takeKeptAnswer();

  var root = document.getElementById("composer");
  if (!root || !window.fetch || !window.JSON || !root.dataset.api) {
    return;
  }
  var api = root.dataset.api;
  // The words, in the page's language (service/web/play.py `composer_words`); English if missing.
  var words = {};
  try { words = JSON.parse(root.dataset.words || "{}"); } catch (e) { words = {}; }
  function w(key, english, fill) {
    var text = words[key];
    if (typeof text === "object" && text !== null) {
      // by the count itself, else by its CLDR plural category (composer_words' "choices")
      var n = fill && fill.n;
      text = text[String(n)] !== undefined ? text[String(n)] : (text[pluralOf(n)] || text.other);
    }
    text = typeof text === "string" ? text : english;
    Object.keys(fill || {}).forEach(function (name) { text = text.split("{" + name + "}").join(fill[name]); });
    return text;
  }
  function pluralOf(n) {
    try { return new Intl.PluralRules(document.documentElement.lang || "en").select(n); } catch (e) { return "other"; }
  }
  var pageSeq = Number(root.dataset.seq);
  var wanted = root.dataset.step || null;

  var plainList = document.getElementById("moves");
  var board = document.getElementById("board");
  var boardNow = board && board.querySelector(".board-now");
  var boardHeading = document.getElementById("board-h");
  var boardTitle = boardHeading ? boardHeading.textContent : "";
  var predicted = null;

  var el = {
    nextHeading: root.querySelector("#composer-next-h"),
    hint: root.querySelector(".composer-hint"),
    choices: root.querySelector(".composer-choices"),
    taken: root.querySelector(".composer-taken"),
    empty: root.querySelector(".composer-empty"),
    status: root.querySelector(".composer-status"),
    problem: root.querySelector(".composer-problem"),
    undo: root.querySelector(".composer-undo"),
    confirm: root.querySelector(".composer-confirm"),
    plain: root.querySelector(".composer-plain")
  };

  var INLINE = 3;  // a step of this many choices or fewer, not a card, shows them at once
  var moves = [];  // the moves chosen so far
  var answers = [];  // answers[0]: the position now (GET); answers[i]: the preview after i moves
  var open = null;  // the key of the step whose choices are shown
  var busy = false;
  var failedAt = null;  // the index of a step the server refused

  // ---- talking to the API ------------------------------------------------------------------------

  function call(url, body) {
    var options = {
      method: body === undefined ? "GET" : "POST",
      // The game's words (labels, steps) in the page's language: the API words them in the language
      // the request asks for (service/web/language.py `for_api`), English when it asks none.
      headers: {"Accept": "application/json", "Accept-Language": document.documentElement.lang || "en"},
      credentials: "omit",
      cache: "no-store"
    };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return {status: response.status, data: data};
      });
    });
  }

  // ---- notes that survive the reload -----------------------------------------------------------------

  function keepNote(text) {
    try { sessionStorage.setItem(noteKey, text); } catch (e) { /* private mode: the reload says less */ }
  }

  function showKeptNote() {
    var text = null;
    try {
      text = sessionStorage.getItem(noteKey);
      sessionStorage.removeItem(noteKey);
    } catch (e) { return; }
    if (!text) { return; }
    var note = document.createElement("p");
    note.className = "notice composer-note";
    note.setAttribute("role", "status");
    note.textContent = text;
    var heading = document.querySelector("main h1");
    if (heading) { heading.insertAdjacentElement("afterend", note); }
  }

  function keepAnswer(data) {
    try { sessionStorage.setItem(answerKey, JSON.stringify(data)); } catch (e) { /* the reload asks again */ }
  }

  function takeKeptAnswer() {
    // Read once and gone: it holds the player's hand, and only the reload just after the turn may use it.
    try {
      var text = sessionStorage.getItem(answerKey);
      sessionStorage.removeItem(answerKey);
      return text ? JSON.parse(text) : null;
    } catch (e) { return null; }
  }

  function reloadWith(text) {
    keepNote(text);
    // The page itself, without the email link's `?step=`: that step was this turn's first, so after
    // the turn the page would call it "not open any more" beside "Your turn was recorded".
    location.replace(location.pathname);
  }

  // ---- the steps -----------------------------------------------------------------------------------

  function current() { return answers[answers.length - 1]; }

  function decisionsOf(key) {
    return current().decisions.filter(function (d) { return d.step.key === key; });
  }

  function choose(key) {
    var found = decisionsOf(key);
    if (found.length === 1) {
      add(found[0]);
    } else if (found.length) {
      open = key;
      render();
      focusFirst();
    }
  }

  function add(decision) {
    busy = true;
    say(w("working", "Working out the board after this step…"));
    render();
    call(api + "/preview", {seq: pageSeq, moves: moves.concat([decision.move])}).then(function (got) {
      busy = false;
      if (got.status === 200) {
        moves.push(decision.move);
        answers.push(got.data);
        open = null;
        failedAt = null;
        problem(null);
      } else if (got.status === 409) {
        stale();
        return;
      } else {
        problem((got.data && (got.data.reason || got.data.message)) || w("preview_failed", "That step could not be previewed."));
      }
      render();
      if (got.status === 200) { showBoard(); }
      focusFirst();
    }, offline);
  }

  function undo() {
    if (!moves.length || busy) { return; }
    moves.pop();
    answers.pop();
    open = null;
    failedAt = null;
    problem(null);
    render();
    showBoard();
    focusFirst();
  }

  // On a phone the step panel sticks to the bottom of the screen (composer.css): after a step, the
  // board it changed is scrolled to the top of the screen, above the panel.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 59.99rem)") : null;

  function showBoard() {
    if (board && narrow && narrow.matches) {
      board.scrollIntoView({block: "start"});
    }
  }

  function confirmTurn() {
    if (!moves.length || busy) { return; }
    busy = true;
    say(w("recording", "Recording your turn…"));
    render();
    call(api, {seq: pageSeq, moves: moves}).then(function (got) {
      if (got.status === 200) {
        keepAnswer(got.data);
        reloadWith(w("recorded", "Your turn was recorded (" + moves.length + (moves.length === 1 ? " step)." : " steps)."),
          {n: moves.length}));
        return;
      }
      busy = false;
      if (got.status === 409) {
        stale();
        return;
      }
      if (got.status === 422 && typeof got.data.index === "number") {
        failedAt = got.data.index;
        problem(w("step_failed", "Step {step} could not be played: {reason}. Nothing was played; undo back to it " +
          "and choose again.", {step: got.data.index + 1, reason: got.data.reason}));
      } else {
        problem((got.data && got.data.message) || w("not_recorded", "Your turn could not be recorded; nothing was played. Try again."));
      }
      render();
    }, offline);
  }

  function stale() {
    busy = true;
    var text = w("stale", "The game moved on since this page was made, so nothing was played. Here is the current position.");
    problem(text);
    render();
    reloadWith(text);
  }

  function offline() {
    busy = false;
    problem(w("offline", "The server could not be reached; nothing was played. Check your connection and try again."));
    render();
  }

  // ---- drawing -------------------------------------------------------------------------------------

  function say(text) { el.status.textContent = text || ""; }

  function problem(text) {
    el.problem.hidden = !text;
    el.problem.textContent = text || "";
  }

  function button(className, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.disabled = busy;
    b.addEventListener("click", onClick);
    return b;
  }

  function stepButton(step) {
    var first = decisionsOf(step.key)[0];
    var card = first && first.move && first.move.card !== undefined;
    var b = button("step" + (card ? " step-card" : ""), function () { choose(step.key); });
    b.dataset.step = step.key;
    if (step.moves === 1 && first) { b.dataset.text = first.text; }
    var name = document.createElement("span");
    name.className = "step-name";
    name.textContent = step.label;
    b.appendChild(name);
    if (step.moves > 1) {
      var count = document.createElement("span");
      count.className = "step-count";
      count.textContent = w("choices", "{n} choices", {n: step.moves});
      b.appendChild(count);
    }
    return b;
  }

  function choiceButton(decision, stepLabel) {
    var b = button("step step-choice", function () { add(decision); });
    b.dataset.text = decision.text;
    var prefix = stepLabel.replace(/…$/, "");
    var label = decision.label;
    if (prefix && prefix !== stepLabel && label.indexOf(prefix) === 0 && label.length > prefix.length) {
      var hidden = document.createElement("span");
      hidden.className = "vh";
      hidden.textContent = prefix + " ";
      b.appendChild(hidden);
      label = label.slice(prefix.length).trim();
      label = label.charAt(0).toUpperCase() + label.slice(1);
    }
    b.appendChild(document.createTextNode(label));
    return b;
  }

  function renderTaken(now) {
    el.taken.textContent = "";
    moves.forEach(function (move, index) {
      var item = document.createElement("li");
      var played = answers[index + 1].moves[index];
      item.textContent = played ? played.label : JSON.stringify(move);
      if (now.hidden && now.hidden.index === index) {
        var more = document.createElement("span");
        more.className = "composer-later";
        more.textContent = " (what it brings shows once you confirm)";
        item.appendChild(more);
      }
      if (failedAt === index) {
        item.className = "failed";
      }
      el.taken.appendChild(item);
    });
    el.empty.hidden = moves.length > 0;
  }

  function renderChoices(now) {
    el.choices.textContent = "";
    el.hint.hidden = true;
    if (now.hidden) {
      el.nextHeading.textContent = w("after_confirm", "The next steps are chosen after you confirm");
      el.hint.textContent = now.hidden.message;
      el.hint.hidden = false;
      return;
    }
    if (moves.length && (now.complete || !now.decisions.length)) {
      el.nextHeading.textContent = w("complete", "Your turn is complete");
      el.hint.textContent = w("complete_hint", "Confirm it below, or undo a step to change it.");
      el.hint.hidden = false;
      return;
    }
    if (open) {
      var step = now.steps.filter(function (s) { return s.key === open; })[0];
      el.nextHeading.textContent = w("choose_one", "{step}: choose one",
        {step: step ? step.label.replace(/…$/, "") : w("this_step", "This step")});
      decisionsOf(open).forEach(function (d) {
        el.choices.appendChild(choiceButton(d, step ? step.label : ""));
      });
      var back = button("secondary composer-back", function () { open = null; render(); focusFirst(); });
      back.textContent = w("back", "Back to all steps");
      el.choices.appendChild(back);
      return;
    }
    el.nextHeading.textContent = moves.length ? w("next_step", "Choose your next step") : w("first_step", "Choose your first step");
    now.steps.forEach(function (step) {
      var found = decisionsOf(step.key);
      if (found.length > 1 && found.length <= INLINE && found[0].move.card === undefined) {
        // a few choices that are not a card ("Choose E1", "Choose E2"): each is its own button
        found.forEach(function (d) {
          var b = choiceButton(d, "");
          b.dataset.step = step.key;
          el.choices.appendChild(b);
        });
      } else {
        el.choices.appendChild(stepButton(step));
      }
    });
  }

  function renderBoard(now) {
    if (!board || !boardNow) { return; }
    if (!predicted) {
      predicted = document.createElement("div");
      predicted.className = "board-predicted";
      predicted.hidden = true;
      boardNow.insertAdjacentElement("afterend", predicted);
    }
    if (moves.length && now.board_html) {
      predicted.innerHTML = now.board_html;  // the server's own rendering of the previewed position
      predicted.hidden = false;
      boardNow.hidden = true;
      board.classList.add("is-predicted");
      boardHeading.textContent = w("predicted", "Board after your steps (not played yet)");
    } else {
      predicted.hidden = true;
      predicted.textContent = "";
      boardNow.hidden = false;
      board.classList.remove("is-predicted");
      boardHeading.textContent = boardTitle;
    }
  }

  function render() {
    var now = current();
    renderTaken(now);
    renderChoices(now);
    renderBoard(now);
    if (!busy) {
      if (!moves.length) {
        say("");
      } else if (now.hidden) {
        say(w("see_last", "Confirm your turn to see what the last step brings."));
      } else if (now.complete || !now.decisions.length) {
        say(w("complete_status", "Your turn is complete: confirm it."));
      } else {
        say(w("planned", (moves.length === 1 ? "1 step" : moves.length + " steps") +
          " planned. Choose the next, or confirm the turn as it is.", {n: moves.length}));
      }
    }
    el.undo.disabled = busy || !moves.length;
    el.confirm.disabled = busy || !moves.length;
    el.confirm.textContent = moves.length ?
      w("confirm_n", "Confirm turn (" + (moves.length === 1 ? "1 step" : moves.length + " steps") + ")", {n: moves.length}) :
      w("confirm", "Confirm turn");
  }

  function focusFirst() {
    var target = el.choices.querySelector("button") || (el.confirm.disabled ? null : el.confirm);
    if (target) { target.focus(); }
  }

  // ---- start ---------------------------------------------------------------------------------------

  function usePlainList() {
    moves = [];
    answers = answers.slice(0, 1);
    open = null;
    if (answers.length) { renderBoard(answers[0]); }
    root.hidden = true;
    if (plainList) { plainList.hidden = false; }
  }

  el.undo.addEventListener("click", undo);
  el.confirm.addEventListener("click", confirmTurn);
  el.plain.addEventListener("click", function () {
    usePlainList();
    var heading = document.getElementById("moves-h");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
  });

  // The position now: the confirmed turn's answer when this page shows the position it led to (one
  // request per turn), else the API's GET.
  var start = keptAnswer && keptAnswer.seq === pageSeq && keptAnswer.decisions ?
    Promise.resolve({status: 200, data: keptAnswer}) : call(api);
  start.then(function (got) {
    if (got.status !== 200 || !got.data.decisions) {
      return;  // the plain list stays
    }
    if (got.data.seq !== pageSeq) {
      reloadWith(w("moved_while_loading", "The game moved on while the page loaded. Here is the current position."));
      return;
    }
    answers = [got.data];
    if (plainList) { plainList.hidden = true; }
    root.hidden = false;
    document.querySelectorAll('a[href="#moves-h"]').forEach(function (link) {
      link.setAttribute("href", "#composer-h");  // "go to your choices": the composer now
    });
    if (wanted && got.data.steps.some(function (s) { return s.key === wanted; })) {
      choose(wanted);
    } else {
      render();
    }
  }, function () { /* the plain list stays */ });
})();
