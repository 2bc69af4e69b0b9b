// Regelseiten auf Deutsch, für diese Seite geschrieben. {{cards:...}} zeigt
// Karten mit dem Kartenbild des Tisches.
export default {
  howto: `
<p>Skat spielen drei Leute mit 32 Karten. In jedem Spiel spielt einer, der <b>Alleinspieler</b>, gegen die beiden anderen, die <b>Gegenspieler</b>. Beim Reizen wird entschieden, wer spielt; der Alleinspieler sagt dann sein Spiel an und braucht 61 der 120 Augen (beim Null: keinen einzigen Stich).</p>
<h2>Karten und Augen</h2>
<p>Jede Farbe hat Ass, Zehn, König, Dame, Bube, Neun, Acht und Sieben. Ein Ass zählt 11 Augen, eine Zehn 10, ein König 4, eine Dame 3, ein Bube 2; der Rest nichts.</p>
{{cards:CA CT CK CQ CJ C9 C8 C7}}
<h2>Geben</h2>
<p>Der Geber gibt jedem drei Karten, legt zwei verdeckt als <b>Skat</b> ab, dann gibt er jedem vier und noch einmal drei. Links vom Geber sitzt <b>Vorhand</b> und spielt zum ersten Stich aus; danach kommen <b>Mittelhand</b> und <b>Hinterhand</b>.</p>
<h2>Reizen</h2>
<p>Gereizt wird mit Spielwerten: 18, 20, 22, 23, 24, 27, 30 und so weiter. Mittelhand sagt, Vorhand hört und antwortet „ja“ oder „passe“; dann reizt Hinterhand den, der übrig ist. Wer zuletzt übrig bleibt, wird Alleinspieler. Reize nur so hoch, wie dein Spiel wert ist: Ein überreiztes Spiel ist verloren.</p>
<h2>Das Spiel</h2>
<p>Der Alleinspieler nimmt den Skat auf und drückt zwei Karten, oder er spielt <b>Hand</b>, ohne ihn anzusehen. Dann sagt er ein Farbspiel, Grand oder Null an.</p>
<p>Im Farbspiel sind die vier Buben die höchsten Trümpfe, danach kommt die Trumpffarbe:</p>
{{cards:CJ SJ HJ DJ HA HT HK HQ H9 H8 H7}}
<p>Im Grand sind nur die vier Buben Trumpf. Beim Null gibt es keinen Trumpf, und die Reihenfolge ist Ass, König, Dame, Bube, Zehn, Neun, Acht, Sieben; der Alleinspieler darf keinen einzigen Stich machen.</p>
<h2>Spielablauf</h2>
<p>Du musst die ausgespielte Farbe bedienen, wenn du kannst; sonst darfst du jede beliebige Karte spielen. Den Stich gewinnt der höchste Trumpf, sonst die höchste Karte der ausgespielten Farbe. Wer den Stich macht, spielt zum nächsten aus.</p>
<h2>Was ein Spiel wert ist</h2>
<p>Farbspiele haben einen Grundwert (Karo 9, Herz 10, Pik 11, Kreuz 12), Grand 24. Er wird mit der Zahl der Spitzen malgenommen, die der Alleinspieler lückenlos hat oder die ihm lückenlos fehlen („mit“ oder „ohne“ so und so viele, der Skat zählt mit), plus eins für das Spiel, plus je eins für Hand, Schneider (eine Partei mit 30 Augen oder weniger), Schwarz (eine Partei ohne Stich) und für deren Ansage. Null ist 23 wert, Null Hand 35, Null ouvert 46 und Null ouvert Hand 59.</p>
<p>Ein gewonnenes Spiel zählt seinen Wert; ein verlorenes kostet den doppelten Wert. Der <a href="/calculator">Rechner</a> rechnet dir jedes Spiel aus.</p>`,
  tournament: `
<p>Die Turnierwertung (Seeger-Fabian) ist an unseren Tischen Standard. Ein gewonnenes Spiel zählt seinen Wert plus 50. Ein verlorenes Spiel kostet den doppelten Wert plus 50, und jeder der anderen Spieler bekommt 40, am Vierertisch 30, dort auch der Geber.</p>
<p>Beispiel: Herz mit 1, Spiel 2, Wert 20. Gewonnen: +70. Verloren: −90 für den Alleinspieler und +40 für jeden Gegenspieler.</p>
<p>So zählt jedes Spiel doppelt: die Spielpunkte und die 50 für den Gewinn. Kontra, Re und Bock verdoppeln nur den Spielwert, nie die 50, 40 oder 30.</p>`,
  plain: `
<p>Die einfache Liste führt nur die Spielwerte: Ein gewonnenes Spiel wird dem Alleinspieler mit seinem Wert gutgeschrieben, ein verlorenes kostet ihn den doppelten Wert, und die Gegenspieler bekommen nichts. Das ist die Liste der Internationalen Skatordnung ohne die Wertungspunkte des Turniers.</p>`,
  ramsch: `
<p>Ist Ramsch eingeschaltet, wird ein Spiel, bei dem alle passen, nicht eingepasst, sondern als Ramsch gespielt. Jeder spielt für sich; wie im Grand sind nur die vier Buben Trumpf; niemand nimmt den Skat auf, er geht an den, der den letzten Stich macht.</p>
{{cards:CJ SJ HJ DJ}}
<p>Wer die meisten Augen hat, verliert so viele Punkte; bei Gleichstand verlieren alle Betroffenen. Bleibt ein Spieler ohne jeden Stich (Jungfrau), zählt der Verlust doppelt. Wer alle Stiche macht (Durchmarsch), gewinnt 120. Ramschspiele werden ohne die Wertungspunkte des Turniers gezählt.</p>`,
  kontra: `
<p>Sind Kontra und Re eingeschaltet, darf ein Gegenspieler, der glaubt, dass der Alleinspieler verliert, nach der Ansage <b>Kontra</b> sagen, bis er seine erste Karte spielt (der Tisch kann andere Grenzen wählen). Das verdoppelt das Spiel. Der Alleinspieler kann mit <b>Re</b> antworten und noch einmal verdoppeln.</p>
<p>Kontra und Re verdoppeln nur den Spielwert: Ein gewonnenes Kontraspiel mit Wert 24 zählt 48, mit Re 96, und die 50, 40 und 30 der Turnierwertung bleiben, wie sie sind. Ob ein Spiel überreizt ist, ändern sie nie.</p>`,
  bock: `
<p>Bockrunden belohnen besondere Spiele. Endet ein Spiel 60 zu 60, wurden Kontra und Re gesagt, geht ein Spiel mit Kontra verloren oder ist ein Spiel 100 oder mehr wert, folgt eine <b>Bockrunde</b>: Jeder gibt einmal, und jedes Spiel zählt doppelt.</p>
<p>Bock verdoppelt Spielwerte und Ramschergebnisse, nicht die Wertungspunkte des Turniers. Ein eingepasstes Spiel verbraucht ein Bockspiel. Auf Wunsch folgt auf jede Bockrunde eine <b>Ramschrunde</b>: ein Pflichtramsch pro Spieler.</p>`,
  four: `
<p>Am Vierertisch gibt der Geber den anderen dreien Karten und setzt in diesem Spiel aus; das Geben geht nach links weiter, so setzt jeder reihum aus. Eine Liste hat dann 48 Spiele.</p>
<p>Mit Turnierwertung bekommt bei einem verlorenen Spiel jeder der drei anderen Spieler 30 Punkte: beide Gegenspieler und der Geber. Beim Ramsch bekommt der Geber nichts.</p>`
};
