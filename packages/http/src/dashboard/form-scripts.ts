/**
 * Progressive enhancement for the record forms, served inside app.js (the CSP allows only same-origin script
 * files): the SA ID number's facts as it is typed, and evidence uploads of several files, one request each, with a
 * progress bar. Without the script the server derives the same facts and takes one file per upload.
 */
export const FORM_SCRIPT = `
(function () {
  function luhn(s) {
    var sum = 0;
    for (var i = 0; i < s.length; i++) {
      var d = s.charCodeAt(s.length - 1 - i) - 48;
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }
  function facts(v) {
    if (!/^\\d{13}$/.test(v)) return v.length ? 'An SA ID number has 13 digits (' + v.length + ' so far).' : '';
    var yy = +v.slice(0, 2), mm = +v.slice(2, 4), dd = +v.slice(4, 6);
    var now = new Date(), y = 2000 + yy;
    var real = function (y) { var d = new Date(Date.UTC(y, mm - 1, dd)); return d.getUTCMonth() === mm - 1 && d.getUTCDate() === dd; };
    if (!real(y) || Date.UTC(y, mm - 1, dd) > now.getTime()) y = 1900 + yy;
    if (!real(y)) return 'This number does not contain a real date of birth.';
    if (v[10] !== '0' && v[10] !== '1') return 'The citizenship digit (11th) must be 0 or 1.';
    if (!luhn(v)) return 'The check digit does not match: look for a typing mistake.';
    return 'Born ' + y + '-' + v.slice(2, 4) + '-' + v.slice(4, 6) + ', ' + (+v.slice(6, 10) < 5000 ? 'female' : 'male') +
      ', ' + (v[10] === '0' ? 'SA citizen' : 'permanent resident') + '.';
  }
  document.querySelectorAll('input[data-sa-id]').forEach(function (input) {
    var out = document.getElementById(input.getAttribute('aria-describedby'));
    var first = out.textContent;
    var show = function () { var t = facts(input.value.replace(/\\s/g, '')); out.textContent = t || first; };
    input.addEventListener('input', show);
    show();
  });
  document.querySelectorAll('button[data-confirm]').forEach(function (b) {
    b.addEventListener('click', function (e) { if (!confirm(b.getAttribute('data-confirm'))) e.preventDefault(); });
  });
  document.querySelectorAll('form[data-confirm-when]').forEach(function (f) {
    f.addEventListener('submit', function (e) {
      var to = f.querySelector('select[name=status]');
      if (to && to.value === f.getAttribute('data-confirm-when') && !confirm('Withdraw this enrolment? A withdrawn enrolment cannot be reopened.')) e.preventDefault();
    });
  });
  document.querySelectorAll('form[data-upload-each]').forEach(function (form) {
    form.addEventListener('submit', function (e) {
      var input = form.querySelector('input[type=file]');
      var files = Array.prototype.slice.call(input.files);
      if (files.length < 2) return;
      e.preventDefault();
      var bar = form.querySelector('progress');
      var said = form.querySelector('[data-upload-status]');
      var total = files.reduce(function (n, f) { return n + f.size; }, 0), done = 0, i = 0;
      bar.hidden = false;
      var next = function () {
        if (i === files.length) { location.assign(location.pathname + '?uploaded=' + files.length); return; }
        var f = files[i++], data = new FormData();
        form.querySelectorAll('input[type=hidden], select').forEach(function (x) { data.append(x.name, x.value); });
        data.append(input.name, f, f.name);
        var xhr = new XMLHttpRequest();
        xhr.open('POST', form.action);
        xhr.upload.onprogress = function (p) { bar.value = Math.round(((done + p.loaded) / total) * 100); };
        xhr.onload = function () {
          done += f.size;
          if (xhr.status >= 400) { said.textContent = f.name + ' was refused; the files before it are uploaded.'; return; }
          said.textContent = i + ' of ' + files.length + ' uploaded';
          next();
        };
        xhr.onerror = function () { said.textContent = 'The upload of ' + f.name + ' failed: check the connection.'; };
        xhr.send(data);
      };
      next();
    });
  });
})();
`;
