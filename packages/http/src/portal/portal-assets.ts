/** The portal's only stylesheet, phone first (docs/dashboard.md, "Learner portal"): small. */
export const PORTAL_STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f7f9}
a{color:#0b4f8a}
header{background:#0b3d66;color:#fff;padding:.5rem .75rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
header a{color:#fff;font-weight:700;text-decoration:none;margin-right:auto}
header form{margin:0}
header button{background:#fff;color:#0b3d66;border:0;margin:0}
main{max-width:40rem;margin:0 auto;padding:.75rem}
h1{font-size:1.4rem;margin:.25rem 0 .75rem}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
h3{font-size:1rem;margin:.75rem 0 .25rem}
h1,h2,h3,p,li,td,th{overflow-wrap:anywhere}
.card{background:#fff;border:1px solid #d0d5dc;border-radius:6px;padding:.75rem;margin:0 0 .75rem}
label{display:block;font-weight:600;margin:.5rem 0 .2rem}
input,select,textarea{font:inherit;padding:.5rem;border:1px solid #6b7280;border-radius:4px;width:100%}
button{font:inherit;padding:.6rem 1rem;border-radius:4px;border:1px solid #0b3d66;background:#0b4f8a;color:#fff;margin-top:.75rem;min-height:44px}
ul.modules{list-style:none;margin:0;padding:0}
ul.modules li{border-top:1px solid #e3e6ea;padding:.4rem 0}
.notice{padding:.75rem;border-radius:6px;margin:0 0 1rem;background:#e7f1fb;border:1px solid #0b4f8a}
.error{background:#fdecea;border-color:#a4161a}
.muted{color:#4b5563}
.ok{color:#166534;font-weight:600}
.todo{color:#92400e;font-weight:600}
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;margin:.5rem 0}
.pager a{display:inline-block;padding:.6rem 0;min-height:44px}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
`;

export const UPLOAD_SCRIPT_PATH = '/learn/assets/upload.js';

/**
 * The portal's one script (docs/dashboard.md, "Learner portal"), on pages with upload forms (`data-retry`): it sends
 * the form itself and, when the connection fails or the server answers 408, 429 or 5xx, tries again after 2, 5 and
 * 10 seconds, saying so under the form. The form's upload key makes every attempt one upload. Without the script
 * the form posts as usual.
 */
export const UPLOAD_SCRIPT = `(() => {
  const WAITS = [2000, 5000, 10000];
  const retry = (status) => status === 408 || status === 429 || status >= 500;
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const say = (form, text, error) => {
    let p = form.querySelector('.upload-status');
    if (!p) {
      p = document.createElement('p');
      p.className = 'upload-status notice';
      p.setAttribute('role', 'status');
      form.appendChild(p);
    }
    p.classList.toggle('error', error);
    p.textContent = text;
  };
  const show = async (res) => {
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    document.replaceChild(document.adoptNode(doc.documentElement), document.documentElement);
  };
  for (const form of document.querySelectorAll('form[data-retry]'))
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      const body = new FormData(form);
      for (let attempt = 1; ; attempt++) {
        if (attempt > 1) say(form, 'Uploading again (attempt ' + attempt + ' of ' + (WAITS.length + 1) + ')...', false);
        let res = null;
        try {
          res = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
        } catch {
          res = null;
        }
        if (res && !retry(res.status)) {
          if (res.ok && res.redirected) return location.assign(res.url);
          return show(res);
        }
        const why = res ? 'the server answered ' + res.status : 'the connection failed';
        if (attempt > WAITS.length) {
          say(form, 'The upload failed ' + attempt + ' times (' + why + '). Check your connection and press the button again: the file is uploaded only once.', true);
          button.disabled = false;
          return;
        }
        say(form, 'The upload failed (' + why + '). Trying again in ' + WAITS[attempt - 1] / 1000 + ' seconds (attempt ' + (attempt + 1) + ' of ' + (WAITS.length + 1) + ').', true);
        await sleep(WAITS[attempt - 1]);
      }
    });
})();
`;
