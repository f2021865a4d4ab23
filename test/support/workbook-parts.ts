import { crc32 } from 'node:zlib';

/**
 * A workbook written part by part, so that a test can cut one part's XML inside a zip that is itself whole
 * (a cut zip is another case: the zip reader refuses it). Entries are stored, not compressed: the smallest
 * zip writer that readers accept.
 */
export function storedZip(entries: ReadonlyArray<readonly [name: string, content: string]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(content, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const column = (index: number): string => String.fromCharCode(65 + index);

/** The parts of a one-sheet workbook whose cells are all text, kept in shared strings (as Excel writes them). */
export function workbookParts(rows: readonly (readonly string[])[]): {
  sheet: string;
  sharedStrings: string;
  build: (parts: { sheet?: string; sharedStrings?: string }) => Buffer;
} {
  const strings: string[] = [];
  const index = (text: string) => {
    const found = strings.indexOf(text);
    if (found >= 0) return found;
    strings.push(text);
    return strings.length - 1;
  };
  const sheetRows = rows
    .map(
      (cells, r) =>
        `<row r="${r + 1}">${cells.map((cell, c) => `<c r="${column(c)}${r + 1}" t="s"><v>${index(cell)}</v></c>`).join('')}</row>`,
    )
    .join('');
  const sheet = `${XML}<worksheet xmlns="${MAIN}"><sheetData>${sheetRows}</sheetData></worksheet>`;
  const sharedStrings = `${XML}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((text) => `<si><t>${text}</t></si>`).join('')}</sst>`;
  const build = (parts: { sheet?: string; sharedStrings?: string }) =>
    workbookOf({ sheet: parts.sheet ?? sheet, sharedStrings: parts.sharedStrings ?? sharedStrings });
  return { sheet, sharedStrings, build };
}

/** A sheet's XML from its `<sheetData>` rows. */
export const sheetXml = (rows: string): string => `${XML}<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;

/** Shared strings' XML from its `<si>` items (its header counts them). */
export const sharedStringsXml = (items: readonly string[]): string =>
  `${XML}<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">${items.join('')}</sst>`;

/**
 * A styles part whose cell style `n` (the `s` of a cell) has the number format `formats[n - 1]`; style 0
 * is General. Put it in a workbook with `extra: [['xl/styles.xml', stylesXml([...])]]`.
 */
export function stylesXml(formats: readonly string[]): string {
  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const numFmts = formats.map((code, index) => `<numFmt numFmtId="${164 + index}" formatCode="${attribute(code)}"/>`).join('');
  const xfs = formats
    .map((_, index) => `<xf numFmtId="${164 + index}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`)
    .join('');
  return `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="${formats.length}">${numFmts}</numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${formats.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs></styleSheet>`;
}

/**
 * A workbook from its parts: `sheet` is the first tab's XML (sheet1.xml), `sharedStrings` optional;
 * `before` are tabs put ahead of it (a name, a relation type and the part's XML; hidden when asked),
 * `extra` any more zip entries, after the rest.
 */
export function workbookOf(parts: {
  sheet: string;
  sharedStrings?: string;
  before?: ReadonlyArray<{ name: string; type: string; target: string; xml: string; hidden?: boolean }>;
  extra?: ReadonlyArray<readonly [name: string, content: string]>;
}): Buffer {
  const before = parts.before ?? [];
  const tabs = [
    ...before.map(
      (tab, index) => `<sheet name="${tab.name}" sheetId="${index + 2}"${tab.hidden ? ' state="hidden"' : ''} r:id="rId${index + 3}"/>`,
    ),
    '<sheet name="Sheet1" sheetId="1" r:id="rId1"/>',
  ];
  const relations = [
    `<Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>`,
    `<Relationship Id="rId2" Type="${DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>`,
    ...before.map((tab, index) => `<Relationship Id="rId${index + 3}" Type="${DOC_RELS}/${tab.type}" Target="${tab.target}"/>`),
  ];
  return storedZip([
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    ['xl/workbook.xml', `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets>${tabs.join('')}</sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `${XML}<Relationships xmlns="${RELS}">${relations.join('')}</Relationships>`],
    ...(parts.sharedStrings === undefined ? [] : ([['xl/sharedStrings.xml', parts.sharedStrings]] as const)),
    ['xl/worksheets/sheet1.xml', parts.sheet],
    ...before.map((tab) => [`xl/${tab.target}`, tab.xml] as const),
    ...(parts.extra ?? []),
  ]);
}
