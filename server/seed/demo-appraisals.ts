import type { AssignmentInput, ComparableInput } from '../../common/contracts/appraisal';
import { DEFAULT_LIMITING_CONDITIONS } from '../../common/domain/appraisal';
import { optionLabel, PURPOSES } from '../../common/domain/samples';

// The demo's appraisals (docs/product/appraisal-report.md): for each valued item, the assignment an
// appraiser would write and the comparable sales the value rests on; and the staff's qualifications.

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

export const DEMO_QUALIFICATIONS: Record<string, string> = {
  'eleanor.staff@demo.lab':
    '<p>MA in History of Art (Courtauld Institute); accredited member of a national society of personal-property appraisers since 2009.</p><p>Eighteen years valuing fine art, silver and furniture for insurers, estates and museums; expert witness in two probate disputes.</p>',
  'marcus.staff@demo.lab':
    '<p>Graduate gemmologist (GG) and certified numismatist; member of the professional numismatists’ association.</p><p>Twelve years in the laboratory’s metals and coins section, including XRF analysis and die studies.</p>',
};

const VALUE_DEFINITIONS: Record<string, string> = {
  'insurance-replacement':
    '<p><strong>Insurance replacement value</strong>: the amount it would cost to replace the item with another of similar kind, age, quality and condition, bought from an appropriate retail market within a reasonable time. Source: the practice of the appraisal societies for insurance appraisals.</p>',
  'fair-market':
    '<p><strong>Fair market value</strong>: the price at which the item would change hands between a willing buyer and a willing seller, neither being under any compulsion and both having reasonable knowledge of the relevant facts. Source: U.S. Treasury Regulation §1.170A-1(c)(2).</p>',
  'auction-estimate':
    '<p><strong>Auction estimate</strong>: the range within which the item would be expected to sell at a well-publicised public auction in its most appropriate market, before the buyer’s premium.</p>',
};

const SCOPES: Record<string, string> = {
  'coins-currency':
    '<p>Examined the coin under magnification and weighed it; XRF analysis of the alloy. Searched public auction records of certified examples of the same date and mint for the last 24 months (two major U.S. auction houses and a price database).</p>',
  'furniture-decorative':
    '<p>Examined every piece in person and read the hallmarks under magnification. Asked three specialist silver dealers for retail prices of comparable hallmarked Victorian services and searched auction records since 2023.</p>',
  'jewelry-watches':
    '<p>Opened the case and examined the movement; compared the numbers with the maker’s archive extract supplied by the client. Considered sales of comparable pocket watches at Geneva and New York auctions since 2022.</p>',
  'books-manuscripts':
    '<p>Collated the volume leaf by leaf against the standard bibliography for first-issue points. Considered auction records of first editions in publisher’s cloth since 2020.</p>',
  'artwork-paintings':
    '<p>Examined the painting in the laboratory under raking light, ultraviolet fluorescence and infrared reflectography; sampled two pigments. Compared dealer and auction prices of Hudson River School landscapes of similar size, date and quality, 2022–2025.</p>',
};

const COMPARABLES: Record<string, (Omit<ComparableInput, 'saleDate'> & { daysAgo: number })[]> = {
  'coins-currency': [
    {
      description: '1893-S Morgan dollar, certified AU-58',
      source: 'Heritage Auctions, Dallas',
      daysAgo: 120,
      price: 15_600,
      currency: 'USD',
      lotUrl: 'https://coins.example.com/lots/1893s-au58',
      notes: 'Same grade; slightly weaker strike.',
    },
    {
      description: '1893-S Morgan dollar, certified AU-55',
      source: 'Stack’s Bowers, New York',
      daysAgo: 210,
      price: 12_925,
      currency: 'USD',
      lotUrl: null,
      notes: null,
    },
    {
      description: '1893-S Morgan dollar, certified MS-61',
      source: 'Price database (certified sales)',
      daysAgo: 330,
      price: 21_150,
      currency: 'USD',
      lotUrl: null,
      notes: 'Higher grade: the upper bound.',
    },
  ],
  'furniture-decorative': [
    {
      description: 'Victorian four-piece tea service, Robert Hennell, London 1866',
      source: 'Specialist silver dealer, London',
      daysAgo: 60,
      price: 8_250,
      currency: 'GBP',
      lotUrl: null,
      notes: 'Retail asking price, with tray.',
    },
    {
      description: 'Victorian tea and coffee service, Hennell, London 1870',
      source: 'Bonhams, London',
      daysAgo: 200,
      price: 5_100,
      currency: 'GBP',
      lotUrl: 'https://auctions.example.com/lot/hennell-1870',
      notes: 'Hammer price with premium; no tray.',
    },
    {
      description: 'Pair of Victorian salvers, London 1868',
      source: 'Auction records database',
      daysAgo: 400,
      price: 2_300,
      currency: 'GBP',
      lotUrl: null,
      notes: null,
    },
  ],
  'jewelry-watches': [
    {
      description: 'Patek Philippe open-face pocket watch, 18k gold, c. 1908',
      source: 'Phillips, Geneva',
      daysAgo: 150,
      price: 40_320,
      currency: 'CHF',
      lotUrl: 'https://auctions.example.com/lot/patek-1908',
      notes: 'Enamel dial without damage.',
    },
    {
      description: 'Patek Philippe pocket watch, 18k gold, c. 1912',
      source: 'Christie’s, New York',
      daysAgo: 260,
      price: 35_280,
      currency: 'USD',
      lotUrl: null,
      notes: 'Price in dollars as sold; not converted.',
    },
  ],
  'books-manuscripts': [
    {
      description: 'Melville, Moby-Dick, first American edition, publisher’s cloth',
      source: 'Christie’s, New York',
      daysAgo: 300,
      price: 75_600,
      currency: 'USD',
      lotUrl: null,
      notes: 'Brighter cloth.',
    },
    {
      description: 'Melville, The Whale, first edition, London 1851, 3 vols',
      source: 'Sotheby’s, London',
      daysAgo: 500,
      price: 52_000,
      currency: 'GBP',
      lotUrl: null,
      notes: 'The English issue: a different market.',
    },
  ],
  'artwork-paintings': [
    {
      description: 'Circle of J. F. Cropsey, autumn river landscape, oil on canvas, 56 × 86 cm',
      source: 'Doyle, New York',
      daysAgo: 90,
      price: 28_000,
      currency: 'USD',
      lotUrl: 'https://auctions.example.com/lot/cropsey-circle-autumn',
      notes: 'Similar size; relined.',
    },
    {
      description: 'Hudson River School, lake view at sunset, oil on canvas, 61 × 91 cm',
      source: 'Specialist dealer, Hudson NY',
      daysAgo: 140,
      price: 38_500,
      currency: 'USD',
      lotUrl: null,
      notes: 'Retail; unsigned.',
    },
    {
      description: 'Attributed to J. F. Cropsey, Greenwood Lake, oil on canvas, 40 × 61 cm',
      source: 'Bonhams, Los Angeles',
      daysAgo: 260,
      price: 33_150,
      currency: 'USD',
      lotUrl: null,
      notes: 'Smaller; better condition.',
    },
    {
      description: 'American School c. 1860, river landscape with figures, 71 × 102 cm',
      source: 'Auction records database',
      daysAgo: 380,
      price: 19_200,
      currency: 'USD',
      lotUrl: null,
      notes: null,
    },
  ],
};

/** The assignment and comparables of a demo item's report, given its category, purpose and value type. */
export function demoAppraisal(
  category: string,
  purpose: string | null,
  valueType: string,
): { assignment: AssignmentInput; comparables: ComparableInput[] } {
  const purposeLabel = optionLabel(PURPOSES, purpose) || 'Insurance';
  return {
    assignment: {
      intendedUse: `${purposeLabel}: the owner asked for a value to set the sum insured of the item under their household fine-art policy.`,
      intendedUsers: 'The client and their insurer',
      valueDefinition: VALUE_DEFINITIONS[valueType] ?? VALUE_DEFINITIONS['fair-market'] ?? '',
      propertyInterest: 'full-ownership',
      propertyInterestOther: null,
      inspection: category === 'books-manuscripts' ? 'in-person' : 'in-person-and-laboratory',
      inspectionDate: daysAgo(30),
      scopeOfWork:
        SCOPES[category] ??
        '<p>Examined the item in person and considered recent sales of comparable items.</p>',
      extraordinaryAssumptions:
        category === 'artwork-paintings'
          ? '<p>The value assumes the attribution to the circle of the artist stated here; a firm attribution to Cropsey himself would change it materially.</p>'
          : null,
      hypotheticalConditions: null,
      limitingConditions: DEFAULT_LIMITING_CONDITIONS,
    },
    comparables: (COMPARABLES[category] ?? []).map(({ daysAgo: d, ...c }) => ({
      ...c,
      saleDate: daysAgo(d),
    })),
  };
}
