/** The fake server's embeddings model: deterministic, and semantic enough to tell paraphrases and
 * a few languages apart the way a real multilingual embeddings model does. Each word (or known
 * phrase) maps to a concept through a small built-in table of synonyms and translations (English,
 * French, Spanish, German, Chinese); unknown words stand for themselves. The vector is a hashed
 * bag of concepts, L2-normalised, so texts about the same things in other words get a high
 * cosine. Common words are left out, as a real model gives them little weight. */
import { fnv1a } from './text.ts';

/** Concept groups: every entry of a group embeds as the group's first entry. Lower case, without
 * accents; multi-word entries are matched as phrases. */
const GROUPS: string[][] = [
  ['buy', 'bought', 'purchase', 'purchased', 'acquire', 'acquired', 'acquisition', 'takeover', 'achat', 'acheter', 'racheter', 'rachat', 'comprar', 'compra', 'kaufen', 'kauf', 'übernahme', '收购', '购买'],
  ['price', 'cost', 'costs', 'cheaper', 'expensive', 'asking price', 'prix', 'precio', 'preis', '价格'],
  ['ceo', 'chief executive', 'boss', 'head', 'pdg', 'director ejecutivo', 'chef', '首席执行官'],
  ['company', 'firm', 'business', 'corporation', 'entreprise', 'societe', 'empresa', 'firma', 'unternehmen', '公司'],
  ['refuse', 'refused', 'rebuff', 'rebuffed', 'reject', 'rejected', 'decline', 'declined', 'turned down', 'refuser', 'rechazar', 'ablehnen'],
  ['vr', 'virtual reality', 'headset', 'oculus', 'realite virtuelle', 'realidad virtual', '虚拟现实'],
  ['gdp', 'gross domestic product', 'economic output', 'pib', 'bip', '国内生产总值'],
  ['html', 'markup', 'css', 'stylesheet', 'stylesheets', 'structure and layout'],
  ['modify', 'change', 'edit', 'alter', 'modifier', 'cambiar', 'andern', '修改'],
  ['examine', 'inspect', 'look at', 'view', 'see', 'examiner', 'examinar', '查看'],
  ['hotel', 'room', 'hostel', 'inn', 'chambre', 'habitacion', 'zimmer', '酒店'],
  ['dress', 'gown', 'frock', 'robe', 'vestido', 'kleid', '礼服', '裙子'],
  ['steal', 'stolen', 'theft', 'taken', 'missing', 'robbed', 'went missing', 'vol', 'vole', 'robado', 'robo', 'gestohlen', '被盗', '偷'],
  ['actress', 'actor', 'star', 'actrice', 'actriz', 'schauspielerin', '演员'],
  ['germ', 'germs', 'bacteria', 'bacterium', 'bug', 'bugs', 'microbe', 'keim', 'keime', 'keimen', 'bacterie', 'bacteria', '细菌'],
  ['medicine', 'medication', 'drug', 'drugs', 'antibiotic', 'antibiotics', 'medicament', 'medicamento', 'medikament', 'antibiotika', '药', '抗生素'],
  ['resistance', 'resistant', 'stop responding', 'multiresistant', 'multiresistenten', 'resistencia', 'resistenz', '耐药'],
  ['misuse', 'misusing', 'overuse', 'abuse', 'not finishing', 'mauvais usage', 'mal uso'],
  ['reason', 'cause', 'why', 'because', 'raison', 'razon', 'grund', '原因'],
  ['earnings', 'profit', 'profits', 'income', 'revenue', 'money', 'benefice', 'ganancias', 'gewinn', '利润'],
  ['charity', 'uso', 'foundation', 'donate', 'give', 'organisation caritative', 'caridad', 'wohltatigkeit', '慈善'],
  ['troops', 'soldiers', 'military', 'army', 'sailor', 'navy', 'veteran', 'troupes', 'soldats', 'tropas', 'soldaten', '军队', '士兵'],
  ['session', 'sessions', 'shoot', 'shoots', 'photo shoot', 'photoshoot', 'seance', 'sesion'],
  ['percent', 'percentage', 'part', 'share', 'fraction', 'pour cent', 'por ciento', 'prozent', '百分之'],
  ['test', 'tests', 'testing', 'coverage', 'code coverage', 'execute', 'executed', 'prueba', 'pruebas', '测试'],
  ['proof', 'prove', 'proofs', 'correct', 'correctness', 'logic', 'preuve', 'prueba de', 'beweis', '证明'],
  ['program', 'programme', 'code', 'software', 'logiciel', 'programa', '程序', '代码'],
  ['phone', 'mobile', 'smartphone', 'cellphone', 'telephone', 'movil', 'telefono', 'handy', '手机'],
  ['storage', 'space', 'size', 'megabyte', 'mb', 'weight', 'espace', 'espacio', 'peso', 'speicher', '存储', '空间'],
  ['lightweight', 'lite', 'light', 'small', 'leger', 'ligero', 'ligera', 'leicht', '轻量'],
  ['app', 'application', 'aplicacion', 'anwendung', '应用'],
  ['variant', 'omicron', 'strain', 'variante', '变种', '变异株'],
  ['long covid', 'persistent symptoms', 'lasting symptoms', 'sintomas persistentes', 'symptomes persistants', '长新冠'],
  ['covid', 'coronavirus', 'virus', 'infection', 'infected', 'infectan', 'infecte', '新冠', '病毒'],
  ['moon', 'lunar', 'lune', 'luna', 'mond', '月球', '月亮'],
  ['drink', 'drank', 'drinking', 'liquid', 'beverage', 'boire', 'bu', 'beber', 'trinken', '喝', '液体', '饮料'],
  ['wine', 'vin', 'vino', 'wein', '葡萄酒', '红酒'],
  ['whisky', 'whiskey', '威士忌'],
  ['microgravity', 'zero gravity', 'weightless', 'space station', 'microgravite', 'microgravedad', 'schwerelosigkeit', '微重力'],
  ['ageing', 'aging', 'mature', 'maturing', 'vieillissement', 'envejecimiento', 'reifung', '陈酿', '熟化'],
  ['experiment', 'trial', 'study', 'research', 'investigation', 'experience', 'experimento', 'estudio', 'investigacion', 'experiment', 'forschung', '试验', '实验', '研究'],
  ['doctoral', 'phd', 'doctorate', 'doctoral student', 'doctorant', 'doctorado', 'doktorand', 'promotion', '博士'],
  ['topic', 'subject', 'theme', 'sujet', 'tema', 'thema', '课题', '主题'],
  ['innovation', 'innovative', 'design', 'creative', 'conception', 'diseno', '创新', '设计'],
  ['middle income', 'middle-income', 'income trap', '中等收入'],
  ['pearl', 'pearls', 'perle', 'perles', 'perla', 'perlas', 'perlen', '珍珠'],
  ['die', 'died', 'death', 'deaths', 'dead', 'kill', 'killed', 'mourir', 'mort', 'morir', 'murieron', 'mataron', 'sterben', 'tot', 'tod', '死亡', '死'],
  ['pill', 'pills', 'tablet', 'tablets', 'capsule', 'pastilla', 'pastillas', 'pilule', 'comprime', 'tablette', 'pille', 'tabletten', '药片'],
  ['chemical', 'substance', 'compound', 'toxic', 'chimique', 'substance chimique', 'sustancia', 'quimica', 'chemikalie', 'substanz', '化学', '物质'],
  ['slimming', 'diet', 'weight loss', 'adelgazar', 'maigrir', 'amincissement', 'abnehmen', 'diat', '减肥'],
  ['year', 'years', 'annual', 'annually', 'annee', 'ans', 'ano', 'anos', 'jahr', 'jahre', 'jedes jahr', '年'],
  ['people', 'persons', 'humans', 'personnes', 'gens', 'personas', 'menschen', '人', '人类'],
  ['how many', 'number of', 'combien', 'cuantos', 'cuantas', 'wie viele', '多少'],
  ['first', 'premier', 'premiere', 'primero', 'primera', 'erste', '第一'],
  ['surface', 'superficie', 'oberflache', '表面'],
  ['scientist', 'scientists', 'researcher', 'researchers', 'scientifique', 'cientifico', 'cientificos', 'wissenschaftler', '科学家'],
  ['network', 'request', 'requests', 'reseau', 'requete', 'red', 'netzwerk', '网络', '请求'],
  ['museum', 'musee', 'museo', '博物馆'],
  ['pyramid', 'pyramide', 'piramide', '金字塔'],
  ['glass', 'verre', 'vidrio', 'glas', '玻璃'],
  ['open', 'opened', 'opening', 'inaugurate', 'inaugurated', 'inauguration', 'ouvrir', 'ouvre', 'ouverture', 'inaugure', 'inauguree', 'abrir', 'inaugurado', 'eroffnet', '开放', '落成'],
  ['architect', 'architecte', 'arquitecto', 'architekt', '建筑师'],
];

const STOP = new Set(
  'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our she so than that the their them then there these they this those to was we were what when where which while who whom why will with would you your ' +
    'le la les un une des du de et est en au aux il elle que qui ce dans pour par sur pas ne se sa son ses el los las y del que con por para una es se su der die das und ist ein eine zu den dem im mit von auf fur',
);

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const HAN = /\p{Script=Han}/u;

/** Phrase → concept, longest phrases first so "long covid" wins over "covid". */
const PHRASES: [string, string][] = GROUPS.flatMap((g) => g.map((w) => [fold(w), fold(g[0] ?? w)] as [string, string])).sort((a, b) => b[0].length - a[0].length);
const WORDS = new Map(PHRASES.filter(([p]) => !p.includes(' ') && !HAN.test(p)));
const MULTI = PHRASES.filter(([p]) => p.includes(' '));
const HAN_WORDS = PHRASES.filter(([p]) => HAN.test(p));

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The concepts of a text, in order of appearance (repeats kept). */
export function concepts(text: string): string[] {
  let t = ` ${fold(text).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const out: string[] = [];
  for (const [p, c] of MULTI) {
    const needle = ` ${p} `;
    while (t.includes(needle)) {
      out.push(c);
      t = t.replace(needle, ' ');
    }
  }
  for (const w of t.split(' ')) {
    if (!w || STOP.has(w)) continue;
    if (HAN.test(w)) {
      let rest = w;
      for (const [p, c] of HAN_WORDS)
        while (rest.includes(p)) {
          out.push(c);
          rest = rest.replace(p, ' ');
        }
      // Unknown Han text: character bigrams, as a tokenizer without a dictionary would.
      for (const part of rest.split(' ')) for (let i = 0; i + 1 < part.length; i++) out.push(part.slice(i, i + 2));
      continue;
    }
    out.push(WORDS.get(w) ?? WORDS.get(stem(w)) ?? stem(w));
  }
  return out;
}


/** A unit vector of `dims` dimensions: the hashed bag of the text's concepts. */
export function conceptEmbedding(text: string, dims = 256): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const c of concepts(text)) v[fnv1a(c) % dims]! += 1;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}
