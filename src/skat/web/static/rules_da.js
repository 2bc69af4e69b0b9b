// Regelsider på dansk, skrevet til dette site. {{cards:...}} viser kort
// med bordets egen korttegning.
export default {
  howto: `
<p>Skat spilles af tre personer med 32 kort. I hvert spil spiller én af dem, <b>solisten</b>, alene mod de to andre, <b>modspillerne</b>. Budgivningen afgør, hvem der bliver solist; solisten melder derefter spillet og skal have 61 af de 120 kortpoint (i Null: ikke et eneste stik).</p>
<h2>Kort og point</h2>
<p>Hver kulør har es, ti, konge, dame, knægt, ni, otte og syv. Es tæller 11, ti 10, konge 4, dame 3 og knægt 2; resten tæller ikke.</p>
{{cards:CA CT CK CQ CJ C9 C8 C7}}
<h2>Uddeling</h2>
<p>Giveren giver tre kort til hver, lægger to lukkede som <b>skat</b>, derefter fire og til sidst tre til hver. Spilleren til venstre for giveren er <b>forhånd</b> og spiller ud til første stik; derefter kommer <b>mellemhånd</b> og <b>baghånd</b>.</p>
<h2>Bud</h2>
<p>Buddene er spilværdier: 18, 20, 22, 23, 24, 27, 30 og så videre. Mellemhånd byder til forhånd, der svarer »ja« eller »pas«; derefter byder baghånd mod den, der er tilbage. Den, der er tilbage til sidst, bliver solist. Byd kun, hvad dit spil er værd: et overbudt spil er tabt.</p>
<h2>Spillet</h2>
<p>Solisten tager skatten og lægger to kort, eller spiller <b>Hand</b> uden at se den. Derefter melder han et farvespil, Grand eller Null.</p>
<p>I et farvespil er de fire knægte de højeste trumfer, derefter kommer trumfkuløren:</p>
{{cards:CJ SJ HJ DJ HA HT HK HQ H9 H8 H7}}
<p>I Grand er kun de fire knægte trumf. I Null er der ingen trumf, og rækkefølgen er es, konge, dame, knægt, ti, ni, otte, syv; solisten må ikke tage et eneste stik.</p>
<h2>Sådan spilles stikkene</h2>
<p>Du skal følge den udspillede kulør, hvis du kan; ellers må du spille et hvilket som helst kort. Højeste trumf vinder stikket, ellers højeste kort i udspillets kulør. Vinderen spiller ud til næste stik.</p>
<h2>Hvad et spil er værd</h2>
<p>Farvespil har et grundtal (ruder 9, hjerter 10, spar 11, klør 12), Grand 24. Det ganges med antallet af sammenhængende toptrumfer, solisten har eller mangler (»med« eller »uden« så mange; skatten tæller med), plus én for spillet, plus én hver for Hand, Schneider (en side med 30 kortpoint eller færre), Schwarz (en side uden stik) og for at melde dem. Null er 23 værd, Null Hand 35, Null Ouvert 46 og Null Ouvert Hand 59.</p>
<p>Et vundet spil giver spilværdien; et tabt spil koster det dobbelte. <a href="/calculator">Beregneren</a> regner ethvert spil ud for dig.</p>`,
  tournament: `
<p>Turneringstælling (Seeger-Fabian) er standard ved vores borde. Et vundet spil giver spilværdien plus 50. Et tabt spil koster den dobbelte værdi plus 50, og hver af de andre spillere får 40, eller 30 ved et bord med fire, hvor giveren også får dem.</p>
<p>Eksempel: hjerter med én, spil to, værd 20. Vundet: +70. Tabt: −90 til solisten og +40 til hver modspiller.</p>
<p>Hvert spil tæller altså to gange: spillets point og de 50 for at vinde det. Kontra, Re og Bock fordobler kun spilværdien, aldrig de 50, 40 eller 30.</p>`,
  plain: `
<p>Den simple liste fører kun spilværdierne: et vundet spil lægger værdien til solistens point, et tabt spil trækker den dobbelte værdi fra, og modspillerne får intet. Det er listen fra den internationale skatordning uden turneringspointene.</p>`,
  ramsch: `
<p>Når Ramsch er slået til, gives kortene ikke om, når alle passer; i stedet spilles der Ramsch. Alle spiller alene; som i Grand er kun de fire knægte trumf; ingen tager skatten, som går til den, der tager sidste stik.</p>
{{cards:CJ SJ HJ DJ}}
<p>Spilleren med flest kortpoint taber lige så mange point; står flere lige, taber de alle. Har en spiller ikke taget et eneste stik (Jungfrau), tæller tabet dobbelt. En spiller, der tager alle stik (Durchmarsch), vinder 120. Ramsch-spil tælles uden turneringspoint.</p>`,
  kontra: `
<p>Når Kontra og Re er slået til, kan en modspiller, der tror, at solisten taber, sige <b>Kontra</b>, når spillet er meldt, indtil han spiller sit første kort (bordet kan vælge andre grænser). Det fordobler spillet. Solisten kan svare <b>Re</b> og fordoble igen.</p>
<p>Kontra og Re fordobler kun spilværdien: et vundet Kontra-spil til 24 giver 48, eller 96 med Re, og turneringens 50, 40 og 30 forbliver uændrede. De ændrer aldrig, om et spil er overbudt.</p>`,
  bock: `
<p>Bockrunder belønner bemærkelsesværdige spil. Når et spil ender 60 mod 60, når der er sagt både Kontra og Re, når et spil med Kontra tabes, eller når et spil er værd 100 eller mere, følger en <b>Bockrunde</b>: ét spil pr. spiller, hvor hvert spil tæller dobbelt.</p>
<p>Bock fordobler spilværdier og Ramsch-resultater, ikke turneringspointene. Et spil, der gives om, bruger et Bockspil. Hvis bordet har valgt det, følger der efter hver Bockrunde en <b>Ramschrunde</b>: ét tvungent Ramsch-spil pr. spiller.</p>`,
  four: `
<p>Ved et bord med fire giver giveren til de tre andre og sidder over i det spil; kortgivningen går videre til venstre, så alle sidder over på skift. En liste er så 48 spil.</p>
<p>Med turneringstælling får hver af de tre andre spillere 30 point, når solisten taber: begge modspillere og giveren. I Ramsch får giveren intet.</p>`
};
