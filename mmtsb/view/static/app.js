// The router: hash routes, so the same pages work served and from a static export opened from disk.
//   #/                                 runs
//   #/run/<run>?<filters>&page=N       a run's episodes
//   #/run/<run>/episode/<episode>      one episode
//   #/compare?a=<run>&b=<run>[&scenario=<name>&repeat=N]
//   #/annotate/<run>/<episode>?annotator=<name>
"use strict";

(function (M) {
  const app = document.getElementById("app");

  async function route() {
    const hash = location.hash || "#/";
    const path = hash.split("?")[0].slice(1).split("/").filter(Boolean).map(decodeURIComponent);
    const q = M.query(hash);
    document.getElementById("mode").textContent = M.api.STATIC ? "static export" : "";
    try {
      if (!path.length) await M.runsPage(app);
      else if (path[0] === "run" && path.length === 2) await M.runPage(app, path[1], q);
      else if (path[0] === "run" && path[2] === "episode" && path.length === 4) await M.episodePage(app, path[1], path[3]);
      else if (path[0] === "compare") await M.comparePage(app, q);
      else if (path[0] === "annotate" && path.length === 3) await M.annotatePage(app, path[1], path[2], q);
      else M.render(app, M.h("p", {class: "err"}, `no page at ${hash}`));
      document.body.dataset.page = path[0] === "run" && path.length === 4 ? "episode" : (path[0] || "runs");
      window.scrollTo(0, 0);
    } catch (e) {
      M.render(app, M.h("p", {class: "err", id: "page-error"}, `Could not show this page: ${e.message}`));
    }
    document.body.dataset.route = hash;   // the page of this route is drawn (tests wait for it)
  }

  window.addEventListener("hashchange", route);
  route();
})(window.MMTSB);
