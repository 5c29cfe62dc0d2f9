/*
 * Rollout Studio's connection policy, loaded before the app (an external same-origin script, since
 * the page's Content-Security-Policy forbids inline scripts). index.html's policy leaves connections
 * to this one: the page may connect to its own origin and, once the user has configured an LLM
 * judge (persisted in localStorage "rollout-studio" as state.judgeConnection, never with its key),
 * to that judge's origin only. Changing the judge's origin reloads the page to apply a new policy.
 */
(function () {
  var origin = "";
  try {
    var raw = window.localStorage.getItem("rollout-studio");
    var state = raw === null ? null : JSON.parse(raw).state;
    var url = state && state.judgeConnection ? state.judgeConnection.baseURL : null;
    if (typeof url === "string") {
      var parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") origin = parsed.origin;
    }
  } catch {
    origin = "";
  }
  var meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = "connect-src 'self'" + (origin === "" ? "" : " " + origin);
  meta.setAttribute("data-judge-origin", origin);
  document.head.appendChild(meta);
})();
