import { MODULE_KINDS, PROGRAMME_TYPES, type ProgrammeInput } from '@fundi/domain/training';
import type { SessionContext } from '@fundi/application/staff';
import { html, type Html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { field } from '../dashboard/web.js';

/** What the programme form shows: a stored programme, or what was posted when the API refused it. */
export interface ProgrammeValues {
  code?: string;
  name?: string;
  type?: string;
  qualificationId?: string | null;
  nqfLevel?: number | string | null;
  modules: { code: string; name: string; kind: string; credits: number | string | null }[];
}

export const typeLabel = (t: string) => t.replace(/_/g, ' ');
/** Blank module rows below the filled ones; more come with `?rows=`. */
const SPARE_ROWS = 3;
export const MAX_ROWS = 200;

function moduleRow(i: number, m: ProgrammeValues['modules'][number] | undefined): Html {
  const n = i + 1;
  return html`<tr><td><label class="sr" for="m${i}-code">Module ${n} code</label><input id="m${i}-code" name="modules.${i}.code" value="${m?.code ?? ''}" maxlength="50"></td>
<td><label class="sr" for="m${i}-name">Module ${n} name</label><input id="m${i}-name" name="modules.${i}.name" value="${m?.name ?? ''}" maxlength="200"></td>
<td><label class="sr" for="m${i}-kind">Module ${n} kind</label><select id="m${i}-kind" name="modules.${i}.kind">${MODULE_KINDS.map((k) => html`<option value="${k}"${k === m?.kind ? ' selected' : ''}>${k}</option>`)}</select></td>
<td><label class="sr" for="m${i}-credits">Module ${n} credits</label><input id="m${i}-credits" name="modules.${i}.credits" value="${m?.credits ?? ''}" inputmode="numeric" class="narrow"></td></tr>`;
}

/** The create or edit form; the code is fixed once the programme exists (docs/api.md, "Programmes"). */
export function programmeForm(
  s: SessionContext,
  action: string,
  v: ProgrammeValues,
  o: { editing: boolean; rows?: number },
): Html {
  const rows = Math.min(MAX_ROWS, Math.max(v.modules.length + SPARE_ROWS, o.rows ?? 0));
  return html`<form class="card" method="post" action="${action}">${csrf(s)}
${
  o.editing
    ? html`<p>Code <strong>${v.code}</strong> <span class="muted">(a programme's code never changes)</span></p>`
    : html`<label for="p-code">Code</label><input id="p-code" name="code" value="${v.code ?? ''}" required maxlength="50" autocomplete="off">`
}
<label for="p-name">Name</label><input id="p-name" name="name" value="${v.name ?? ''}" required maxlength="200">
<label for="p-type">Type</label><select id="p-type" name="type">${PROGRAMME_TYPES.map((t) => html`<option value="${t}"${t === v.type ? ' selected' : ''}>${typeLabel(t)}</option>`)}</select>
<label for="p-qual">SAQA qualification id (optional)</label><input id="p-qual" name="qualificationId" value="${v.qualificationId ?? ''}" maxlength="50">
<label for="p-nqf">NQF level (0 to 10, optional)</label><input id="p-nqf" name="nqfLevel" value="${v.nqfLevel ?? ''}" inputmode="numeric" class="narrow">
<fieldset><legend>Modules (rows left blank are ignored)</legend>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Credits</th></tr></thead><tbody>
${Array.from({ length: rows }, (_, i) => moduleRow(i, v.modules[i]))}
</tbody></table></div>
<p><a href="?rows=${Math.min(MAX_ROWS, rows + 10)}">More module rows</a> <span class="muted">(what you typed is not kept: save first)</span></p></fieldset>
<button type="submit">${o.editing ? 'Save programme' : 'Create programme'}</button></form>`;
}

/** Whole numbers as numbers (the API's JSON types); anything else is passed on for the domain to refuse by name. */
function numberOrText(v: string | undefined): number | string | null {
  if (v === undefined) return null;
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** The posted form as the API's input; blank module rows are left out. */
export function programmeInput(form: URLSearchParams, creating: boolean): ProgrammeInput & ProgrammeValues {
  const modules: ProgrammeValues['modules'] = [];
  for (let i = 0; i < MAX_ROWS; i++) {
    const code = field(form, `modules.${i}.code`);
    const name = field(form, `modules.${i}.name`);
    if (!code && !name) continue;
    modules.push({
      code: code ?? '',
      name: name ?? '',
      kind: field(form, `modules.${i}.kind`) ?? '',
      credits: numberOrText(field(form, `modules.${i}.credits`)),
    });
  }
  return {
    ...(creating ? { code: field(form, 'code') ?? '' } : {}),
    name: field(form, 'name') ?? '',
    type: field(form, 'type') ?? '',
    qualificationId: field(form, 'qualificationId') ?? null,
    nqfLevel: numberOrText(field(form, 'nqfLevel')),
    modules,
  };
}
