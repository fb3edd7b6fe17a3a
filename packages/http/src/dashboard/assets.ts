import { FORM_SCRIPT } from './form-scripts.js';

/** The dashboard's only stylesheet and script, served from its own origin (the CSP allows nothing else). */
export const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f7f9}
a{color:#0b4f8a}
header{background:#0b3d66;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}
header .brand{font-weight:700;color:#fff;text-decoration:none;margin-right:auto}
header nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
header nav a{color:#fff}
header nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header form{margin:0}
header button{background:#fff;color:#0b3d66;border:0}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h1,h2,h3,p,li{overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;padding:0;list-style:none}
.tiles li{background:#fff;border:1px solid #d0d5dc;border-radius:6px;padding:.75rem}
.tiles strong{display:block;font-size:1.6rem}
.table{position:relative;overflow-x:auto;background:#fff;border:1px solid #d0d5dc;border-radius:6px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e3e6ea;vertical-align:top;overflow-wrap:break-word}
th{white-space:nowrap}
th[scope=row]{white-space:normal;width:40%}
td button,td .nowrap{white-space:nowrap}
form.card,.card{background:#fff;border:1px solid #d0d5dc;border-radius:6px;padding:1rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.5rem 0 .2rem}
input,select,textarea{font:inherit;padding:.4rem;border:1px solid #6b7280;border-radius:4px;width:100%;max-width:28rem}
button{font:inherit;padding:.45rem .9rem;border-radius:4px;border:1px solid #0b3d66;background:#0b4f8a;color:#fff;cursor:pointer;margin-top:.5rem}
button.secondary{background:#fff;color:#0b3d66}
button.danger{background:#a4161a;border-color:#a4161a}
td form{display:inline}
td button{margin:0 .25rem .25rem 0}
.notice{padding:.75rem;border-radius:6px;margin:0 0 1rem;background:#e7f1fb;border:1px solid #0b4f8a}
.error{background:#fdecea;border-color:#a4161a}
.secret{font-family:ui-monospace,monospace;word-break:break-all}
.muted{color:#4b5563}
img.preview{max-width:100%;height:auto;border:1px solid #d0d5dc}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
object.preview.pdf{width:100%;height:70vh;border:1px solid #d0d5dc}
.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.inline input{width:auto;flex:1 1 12rem}
.inline label.row{flex:1 0 100%;margin-bottom:0}
.check{display:flex;align-items:center;gap:.5rem;margin:.35rem 0}
.check input{width:auto;margin:0;flex:none}
.check label{display:inline;font-weight:400;margin:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted-light{font-weight:400;color:#dbe7f3}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
header details.menu>summary{cursor:pointer;padding:.6rem .9rem;border:1px solid #fff;border-radius:4px;min-height:44px}
@media (min-width:64rem){header details.menu>summary{display:none}header details.menu::details-content{content-visibility:visible;display:contents}}
@media (max-width:63.99rem){header details.menu{order:3;flex:1 0 100%}header details.menu[open] nav ul{flex-direction:column;padding:.5rem 0}header nav a{display:inline-block;padding:.35rem 0}}
a.button{display:inline-block;padding:.45rem .9rem;border-radius:4px;background:#0b4f8a;color:#fff;text-decoration:none;min-height:44px;line-height:1.8}
fieldset{border:1px solid #d0d5dc;border-radius:6px;margin:1rem 0;padding:.5rem 1rem;min-width:0}
legend{font-weight:600}
input.narrow{max-width:7rem}
td input,td select{min-width:6rem}
button,a.button,summary{min-height:24px}
.danger-zone{border-color:#a4161a}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:0 1rem}
.grid2 input,.grid2 select{max-width:none}
.subform{border-top:1px solid #e3e6ea;margin-top:1rem}
h4{margin:.75rem 0 0}
form.tight{gap:.25rem .5rem;flex-wrap:nowrap}
form.tight label{font-weight:400;margin:0;font-size:.85rem}
form.tight input,form.tight select{width:auto;min-width:0}
form.tight button{margin:0;min-width:2.75rem}
progress{width:100%;max-width:28rem;height:1rem}
.pick input{width:1.5rem;height:1.5rem;margin:0}
svg.chart{display:block;max-width:48rem;height:auto}
`;

export const SCRIPT = `
document.querySelectorAll('[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var field = document.getElementById(b.getAttribute('data-copy'));
    field.select();
    (navigator.clipboard ? navigator.clipboard.writeText(field.value) : Promise.reject()).then(
      function () { b.textContent = 'Copied'; },
      function () { document.execCommand('copy'); b.textContent = 'Copied'; }
    );
  });
});
document.querySelectorAll('form[data-confirm]').forEach(function (f) {
  f.addEventListener('submit', function (e) { if (!confirm(f.getAttribute('data-confirm'))) e.preventDefault(); });
});
(function () {
  // A list of background work that is still running (data-poll): fetched again from this same page and swapped in
  // until the server stops marking it, so its progress bars move without reloading the page.
  var box = document.querySelector('[data-poll][id]');
  if (!box || !window.fetch || !window.DOMParser) return;
  var every = +box.getAttribute('data-poll') || 2000;
  function tick() {
    fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById(box.id);
        if (!next) return;
        box.innerHTML = next.innerHTML;
        if (next.hasAttribute('data-poll')) setTimeout(tick, every);
        else box.removeAttribute('data-poll');
      }, function () { setTimeout(tick, every * 2); });
  }
  setTimeout(tick, every);
})();
${FORM_SCRIPT}`;
