/* This device's time zone on the player and account pages (templates/_time_zone.html).
 *
 * A progressive enhancement: without JavaScript the page offers a short list of zones and a field to
 * type any other.  With it:
 * - a person who never chose a zone gets this device's zone at once: a POST with the page's CSRF
 *   token that says `first_visit` (the server sets it only if no zone was chosen meanwhile); the
 *   page's times and its time zone section are then refreshed in place from the page itself (nothing
 *   else on the page moves: a turn being composed stays), with a note saying so and a way to change it;
 * - a person whose zone shows other times than this device's is offered one button to use the
 *   device's; nothing changes until it is pressed;
 * - the field's suggestions (its <datalist>) are every zone's name, fetched once when it is first used.
 */
(function () {
  "use strict";

  var box = document.getElementById("time-zone");
  if (!box || !window.fetch || !window.Intl || !window.DOMParser) {
    return;
  }
  var device = null;
  try {
    device = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) { /* no zone to offer */ }

  setUp(box);

  function setUp(section) {
    suggestNames(section);
    if (!device) {
      return;
    }
    if (section.dataset.chosen === "no") {
      takeDeviceZone(section);
    } else if (!sameTimes(section.dataset.zone, device)) {
      offerDeviceZone(section);
    }
  }

  // Two names of one zone (Asia/Calcutta, Asia/Kolkata), or two zones that keep the same time all
  // year (Europe/Paris, Europe/Berlin), show the same times: nothing to offer.
  function sameTimes(a, b) {
    if (a === b) {
      return true;
    }
    var year = new Date().getUTCFullYear();
    try {
      return [0, 6].every(function (month) {
        var when = Date.UTC(year, month, 15, 12);
        return wallClock(a, when) === wallClock(b, when);
      });
    } catch (e) {
      return false;  // a name this browser does not know
    }
  }

  function wallClock(zone, when) {
    return new Intl.DateTimeFormat("en-US", {
      timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    }).format(when);
  }

  function deviceForm(section) {
    var form = section.querySelector("form.tz-device");
    form.elements.time_zone.value = device;
    form.querySelector(".tz-device-name").textContent = device;
    return form;
  }

  function offerDeviceZone(section) {
    deviceForm(section).hidden = false;  // a plain form POST: the page reloads with the zone
  }

  function takeDeviceZone(section) {
    var body = new FormData(deviceForm(section));
    body.append("first_visit", "browser");
    fetch(section.querySelector("form.tz-device").action, {
      method: "POST", body: body, credentials: "same-origin", headers: {"Accept": "application/json"}
    }).then(function (answer) {
      if (!answer.ok) {  // an unknown zone, or one chosen meanwhile elsewhere: the page stays as it is
        return null;
      }
      return answer.json().then(function (chosen) {
        return refresh().then(function () { note(chosen.time_zone); });
      });
    }).catch(function () { /* offline: the page stays as it is, and asks again next time */ });
  }

  // The page again (a GET), for the times it shows and its time zone section, now in the new zone.
  function refresh() {
    return fetch(location.href, {credentials: "same-origin", cache: "no-store"}).then(function (answer) {
      return answer.ok ? answer.text() : null;
    }).then(function (html) {
      if (html === null) {
        return;
      }
      var fresh = new DOMParser().parseFromString(html, "text/html");
      document.querySelectorAll("[data-time]").forEach(function (shown) {
        var twin = fresh.querySelector('[data-time="' + shown.dataset.time + '"]');
        if (twin) {
          shown.textContent = twin.textContent;
        }
      });
      var section = fresh.getElementById("time-zone");
      var old = document.getElementById("time-zone");
      if (section && old) {
        section = document.importNode(section, true);
        old.replaceWith(section);
        suggestNames(section);
      }
    });
  }

  function note(zone) {
    var words = document.createElement("p");
    words.className = "notice tz-note";
    words.setAttribute("role", "status");
    // The page's language: templates/_time_zone.html carries the two texts, translated.
    var section = document.getElementById("time-zone");
    var said = (section && section.dataset.note) || "Times are shown in {zone} (from your browser).";
    words.appendChild(document.createTextNode(said.replace("{zone}", zone) + " "));
    var change = document.createElement("a");
    change.href = "#time-zone";
    change.textContent = (section && section.dataset.change) || "Change";
    words.appendChild(change);
    var heading = document.querySelector("main h1");
    if (heading) {
      heading.insertAdjacentElement("afterend", words);
    }
  }

  function suggestNames(section) {
    var field = section.querySelector("input[list]");
    var list = field && document.getElementById(field.getAttribute("list"));
    if (!list || !section.dataset.names) {
      return;
    }
    var asked = false;
    function fill() {
      if (asked) {
        return;
      }
      asked = true;
      fetch(section.dataset.names, {credentials: "omit"}).then(function (answer) {
        return answer.ok ? answer.json() : [];
      }).then(function (names) {
        var options = document.createDocumentFragment();
        names.forEach(function (name) {
          var option = document.createElement("option");
          option.value = name;
          options.appendChild(option);
        });
        list.appendChild(options);
      }).catch(function () { asked = false; });
    }
    field.addEventListener("focus", fill);
    field.addEventListener("input", fill);
  }
})();
