import {
  importRecipes,
  matchRate,
  type ImportReport,
  type PageReport,
} from '../modules/recipe-import/importer.ts';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { withServices } from './services.ts';

/**
 * npm run import:recipes -- <file or folder> [--dry-run] [--quiet]
 * Markdown recipes with front matter and schema.org Recipe JSON-LD (.json, or in .html) become
 * catalog recipes (upserted by slug) in the database the service uses (DATABASE_URL, or the
 * embedded database under DATA_DIR). --dry-run parses and reports without writing.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const target = args.find((a) => !a.startsWith('--'));
  if (!target) {
    console.error('usage: npm run import:recipes -- <file or folder> [--dry-run] [--quiet]');
    return 2;
  }
  const quiet = args.includes('--quiet');
  const config = parseConfig();
  return withServices(config, async (services) => {
    await services.ingredients.seedIngredients();
    const dryRun = args.includes('--dry-run');
    const report = await importRecipes(target, {
      parseLine: (text) => services.ingredients.parseLine(text),
      ...(dryRun ? {} : { upsert: (seed) => services.recipes.upsertCatalogRecipe(seed) }),
    });
    print(report, quiet);
    return report.failed > 0 || report.pages.some((p) => p.status === 'error') ? 1 : 0;
  });
}

const PAGE_STATUS: Record<PageReport['status'], string> = {
  read: 'recipe read',
  empty: 'structured recipe without ingredients or steps',
  'no-structured-data': 'no structured recipe on this page',
  error: 'error',
};

function print(report: ImportReport, quiet: boolean): void {
  const recipesOf = (file: string) => report.recipes.filter((r) => r.file === file);
  for (const page of report.pages) {
    const how = page.form ? ` (${page.form})` : '';
    console.log(`${page.file}: ${PAGE_STATUS[page.status]}${how}${page.error ? `: ${page.error}` : ''}`);
    for (const r of recipesOf(page.file)) {
      const rate = matchRate(r.matchedWithQuantity, r.linesWithQuantity);
      console.log(
        `  ${r.title} [${r.language}]: ${r.status}${r.reason ? ` (${r.reason})` : ''}; ` +
          `${r.matchedWithQuantity}/${r.linesWithQuantity} lines with a quantity matched (${rate}), ${r.matched}/${r.lines} in all`,
      );
      if (!quiet) for (const line of r.unmatched) console.log(`    unmatched: ${line}`);
    }
  }
  const count = (status: PageReport['status']) => report.pages.filter((p) => p.status === status).length;
  const structured = report.pages.length - count('no-structured-data');
  console.log(
    `pages: ${report.pages.length}; with structured data ${structured}, read ${count('read')} ` +
      `(${matchRate(count('read'), structured)}), empty ${count('empty')}, errors ${count('error')}; ` +
      `without structured data ${count('no-structured-data')} (not counted)`,
  );
  const languages = [...report.languages.entries()].sort(
    (a, b) => b[1].linesWithQuantity - a[1].linesWithQuantity,
  );
  for (const [language, t] of languages) {
    console.log(
      `language ${language}: ${t.matchedWithQuantity}/${t.linesWithQuantity} lines with a quantity matched ` +
        `(${matchRate(t.matchedWithQuantity, t.linesWithQuantity)})`,
    );
  }
  console.log(
    `total: ${report.recipes.length} recipes, ${report.imported} imported, ${report.skipped} skipped, ` +
      `${report.failed} failed; ${report.matchedWithQuantity}/${report.linesWithQuantity} lines with a quantity matched ` +
      `(${matchRate(report.matchedWithQuantity, report.linesWithQuantity)})`,
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
