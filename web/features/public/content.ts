// What the public pages say about the lab (docs/product/README.md): services, turnaround, claims, gallery, process.

export type IconName =
  | 'valuation'
  | 'authenticity'
  | 'condition'
  | 'report'
  | 'provenance'
  | 'market'
  | 'secure'
  | 'consultation'
  | 'restoration';

export const STATS = [
  { value: '15+', label: 'Years Experience' },
  { value: '10,000+', label: 'Items Valued' },
  { value: '100%', label: 'Secure & Insured' },
  { value: '5,000+', label: 'Happy Clients' },
] as const;

export const CORE_SERVICES: { icon: IconName; title: string; description: string }[] = [
  {
    icon: 'valuation',
    title: 'Expert Valuations',
    description:
      'Fair market and insurance values set by specialists who compare your piece with recent sales of similar items.',
  },
  {
    icon: 'authenticity',
    title: 'Authenticity Verification',
    description:
      'Maker’s marks, materials, construction and wear are examined to confirm that an item is what it claims to be.',
  },
  {
    icon: 'condition',
    title: 'Condition Assessment',
    description:
      'A careful record of damage, repairs and restoration, graded so that insurers and buyers know what they are getting.',
  },
  {
    icon: 'report',
    title: 'Detailed Reports',
    description:
      'A signed PDF report with photographs, analysis results and a verification code anyone can check online.',
  },
  {
    icon: 'provenance',
    title: 'Provenance Research',
    description:
      'Archives, auction records and exhibition catalogues traced to document an item’s history of ownership.',
  },
  {
    icon: 'market',
    title: 'Market Trends Analysis',
    description:
      'How demand and prices for your category have moved, and what that means for selling, holding or insuring.',
  },
];

export const ADDITIONAL_SERVICES: { icon: IconName; title: string; description: string }[] = [
  {
    icon: 'secure',
    title: 'Secure Handling',
    description:
      'Items in our care are logged, stored in a monitored vault and fully insured from arrival to return.',
  },
  {
    icon: 'consultation',
    title: 'Consultation',
    description:
      'Talk through a collection, an inheritance or a purchase with an appraiser before you decide.',
  },
  {
    icon: 'restoration',
    title: 'Restoration Advice',
    description:
      'Honest guidance on whether to restore, conserve or leave well alone, and who can do the work.',
  },
];

export const TURNAROUND = [
  {
    title: 'Standard',
    time: '7-10 business days',
    description: 'Our regular service for most valuations and authentications.',
  },
  {
    title: 'Urgent',
    time: '3-5 business days',
    description:
      'Prioritised analysis for an additional fee. Rush and express options are available on request.',
  },
] as const;

export const GALLERY = [
  {
    title: 'Georgian Pocket Watch',
    category: 'Timepieces',
    image: '/gallery/timepieces.svg',
    alt: 'Illustration of a gold pocket watch with a white enamel dial',
    description: 'Movements, cases and dials of pocket watches, wristwatches and clocks.',
  },
  {
    title: 'Blue and White Porcelain',
    category: 'Ceramics',
    image: '/gallery/ceramics.svg',
    alt: 'Illustration of a blue and white porcelain vase',
    description: 'Porcelain, stoneware and earthenware, with marks, glazes and repairs examined.',
  },
  {
    title: 'Sterling Silver Teapot',
    category: 'Silver & Metalwork',
    image: '/gallery/silver-metalwork.svg',
    alt: 'Illustration of a polished silver teapot',
    description: 'Hallmarked silver, pewter, bronze and brass, assayed for content and maker.',
  },
  {
    title: 'Antique Diamond Ring',
    category: 'Jewelry',
    image: '/gallery/jewelry.svg',
    alt: 'Illustration of a diamond ring and a pearl necklace',
    description: 'Gemstones, precious metals and period settings, graded and identified.',
  },
  {
    title: 'Landscape in Oils',
    category: 'Fine Art',
    image: '/gallery/fine-art.svg',
    alt: 'Illustration of a landscape painting in a gilt frame',
    description: 'Paintings, drawings and prints, with attribution and condition of canvas and frame.',
  },
  {
    title: 'Carved Oak Cabinet',
    category: 'Furniture',
    image: '/gallery/furniture.svg',
    alt: 'Illustration of a carved wooden cabinet with brass handles',
    description: 'Period furniture: woods, joinery, finishes and later alterations.',
  },
  {
    title: 'Gold Sovereigns',
    category: 'Numismatics',
    image: '/gallery/numismatics.svg',
    alt: 'Illustration of a stack of gold coins beside a silver coin',
    description: 'Coins, medals and banknotes, graded for rarity, strike and wear.',
  },
  {
    title: 'Illuminated Manuscript',
    category: 'Books & Manuscripts',
    image: '/gallery/books-manuscripts.svg',
    alt: 'Illustration of an open manuscript with a quill',
    description: 'First editions, bindings, letters and manuscripts, collated and dated.',
  },
] as const;

export const PROCESS = [
  { title: 'Submit', description: 'Describe your item and upload photos through your account.' },
  { title: 'Review', description: 'An appraiser reviews your submission and sends you a quote.' },
  { title: 'Evaluate', description: 'Our specialists examine, research and analyse the item.' },
  { title: 'Report', description: 'You receive a detailed, verifiable report to download.' },
] as const;

export const VALUES = [
  {
    title: 'Honesty',
    description: 'We tell you what an item is and what it is worth, even when the answer disappoints.',
  },
  {
    title: 'Transparency',
    description: 'Every report shows how we reached its conclusions, and every report can be verified.',
  },
  {
    title: 'Dedication',
    description: 'Each piece gets the time it needs, whether it is a family keepsake or a museum loan.',
  },
] as const;

export const TEAM = [
  {
    name: 'Dr. Eleanor Hayes',
    role: 'Founder & Chief Appraiser',
    bio: 'Twenty years in decorative arts, formerly a curator of European silver.',
    initials: 'EH',
  },
  {
    name: 'Marcus Bennett',
    role: 'Head of Authentication',
    bio: 'Specialist in horology and scientific analysis of metals and gemstones.',
    initials: 'MB',
  },
  {
    name: 'Sofia Alvarez',
    role: 'Provenance Researcher',
    bio: 'Traces ownership histories through archives, auction records and catalogues.',
    initials: 'SA',
  },
  {
    name: 'James Whitaker',
    role: 'Fine Art & Furniture Appraiser',
    bio: 'Accredited appraiser of paintings and period furniture for insurers and estates.',
    initials: 'JW',
  },
] as const;
