/** The landing hero's drawing: a vase and a pocket watch under a magnifying glass. Decorative. */
export function HeroIllustration() {
  return (
    <svg viewBox="0 0 420 360" width="100%" aria-hidden="true" focusable="false" className="hero-art">
      <defs>
        <linearGradient id="hero-gold" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f1d58a" />
          <stop offset="1" stopColor="#b8860b" />
        </linearGradient>
        <radialGradient id="hero-glow" cx=".5" cy=".5" r=".5">
          <stop offset="0" stopColor="#ddae46" stopOpacity=".35" />
          <stop offset="1" stopColor="#ddae46" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="210" cy="180" r="170" fill="url(#hero-glow)" />
      <rect x="60" y="300" width="300" height="14" rx="7" fill="#0f1a30" opacity=".6" />
      {/* vase */}
      <path d="M120 96h52v10c0 12 34 34 34 82s-26 112-60 112-60-64-60-112 34-70 34-82z" fill="#f5f2ea" />
      <path d="M116 90h60v10h-60z" fill="#e3dccb" />
      <path
        d="M96 170c34 12 66 12 100 0M92 226c38 14 70 14 108 0"
        stroke="#2c4d8f"
        strokeWidth="5"
        fill="none"
      />
      <path d="M118 198c8-16 22-16 30 0s22 16 30 0" stroke="#4569b6" strokeWidth="4" fill="none" />
      {/* pocket watch */}
      <circle cx="290" cy="250" r="52" fill="url(#hero-gold)" />
      <circle cx="290" cy="250" r="43" fill="#fbf6e9" />
      <path d="M290 250v-28M290 250l20 10" stroke="#1b2a4a" strokeWidth="4" strokeLinecap="round" />
      <circle cx="290" cy="250" r="4" fill="#a87706" />
      <path d="M290 198v-12" stroke="url(#hero-gold)" strokeWidth="8" strokeLinecap="round" />
      <circle cx="290" cy="180" r="8" fill="none" stroke="url(#hero-gold)" strokeWidth="4" />
      {/* magnifier */}
      <circle
        cx="250"
        cy="120"
        r="62"
        fill="#ffffff"
        fillOpacity=".12"
        stroke="url(#hero-gold)"
        strokeWidth="12"
      />
      <path
        d="M206 90c10-14 26-20 40-18"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
        opacity=".7"
        fill="none"
      />
      <path d="M296 166l56 56" stroke="url(#hero-gold)" strokeWidth="18" strokeLinecap="round" />
      {/* sparkles */}
      <path d="M372 70l6 14 14 6-14 6-6 14-6-14-14-6 14-6z" fill="#f1d58a" />
      <path d="M60 60l4 9 9 4-9 4-4 9-4-9-9-4 9-4z" fill="#f1d58a" opacity=".8" />
    </svg>
  );
}
