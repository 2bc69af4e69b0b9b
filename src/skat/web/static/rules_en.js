// Rules pages in English, written for this site. {{cards:...}} draws cards
// with the table's own card renderer.
export default {
  howto: `
<p>Skat is played by three people with 32 cards. In every deal one of them, the <b>declarer</b>, plays alone against the other two, the <b>defenders</b>. An auction decides who declares; the declarer then names the game and needs 61 of the 120 card points (or, in Null, no trick at all).</p>
<h2>Cards and points</h2>
<p>Each suit has ace, ten, king, queen, jack, nine, eight and seven. Aces count 11, tens 10, kings 4, queens 3, jacks 2; the rest nothing.</p>
{{cards:CA CT CK CQ CJ C9 C8 C7}}
<h2>Dealing</h2>
<p>The dealer gives three cards to each player, puts two face down as the <b>skat</b>, then four and three to each. The player on the dealer's left is <b>forehand</b> and leads the first trick; then come <b>middlehand</b> and <b>rearhand</b>.</p>
<h2>Bidding</h2>
<p>Bids are game values: 18, 20, 22, 23, 24, 27, 30 and so on. Middlehand bids to forehand, who answers “yes” or passes; then rearhand bids to whoever is left. The last one in becomes the declarer. Bid only what your game is worth: you lose an overbid game.</p>
<h2>The game</h2>
<p>The declarer picks up the skat and puts two cards away, or plays <b>Hand</b> without looking at it. Then he announces a suit game, Grand or Null.</p>
<p>In a suit game the four jacks are the highest trumps, then the trump suit:</p>
{{cards:CJ SJ HJ DJ HA HT HK HQ H9 H8 H7}}
<p>In Grand only the four jacks are trumps. In Null there are no trumps and the order is ace, king, queen, jack, ten, nine, eight, seven; the declarer must not take a single trick.</p>
<h2>Playing</h2>
<p>You must follow the suit that was led if you can; otherwise you may play any card. The highest trump wins the trick, or else the highest card of the suit led. The winner leads to the next trick.</p>
<h2>What a game is worth</h2>
<p>Suit games have a base value (diamonds 9, hearts 10, spades 11, clubs 12), Grand 24. It is multiplied by the number of top trumps the declarer holds or misses in a row (“with” or “without” so many, the skat counts), plus one for the game, plus one each for Hand, Schneider (a party with 30 points or fewer), Schwarz (a party without a trick) and for announcing them. Null is worth 23, Null Hand 35, Null Ouvert 46 and Null Ouvert Hand 59.</p>
<p>A won game scores its value; a lost game costs twice its value. The <a href="/calculator">calculator</a> works out any game for you.</p>`,
  tournament: `
<p>Tournament scoring (Seeger-Fabian) is the default at our tables. A won game scores its value plus 50. A lost game costs twice its value plus 50, and each of the other players gets 40, or 30 at a table of four, where the dealer gets them too.</p>
<p>Example: hearts with one, game two, worth 20. Won: +70. Lost: −90 for the declarer and +40 for each defender.</p>
<p>So every game counts twice over: the points of the game and the 50 for winning it. Kontra, Re and Bock double only the game value, never the 50, 40 or 30.</p>`,
  plain: `
<p>The plain list keeps only the game values: a won game adds its value to the declarer's score, a lost game takes away twice its value, and the defenders score nothing. It is the list of the International Skat Order without the tournament points.</p>`,
  ramsch: `
<p>With Ramsch switched on, a deal in which everybody passes is not thrown in but played as Ramsch. Everyone plays alone; only the four jacks are trumps, as in Grand; nobody takes the skat, which goes to the winner of the last trick.</p>
{{cards:CJ SJ HJ DJ}}
<p>The player with the most card points loses that many points; tied players all lose. A player who took no trick at all (Jungfrau) doubles the loss. A player who takes every trick (Durchmarsch) wins 120. Ramsch deals are scored without the tournament points.</p>`,
  kontra: `
<p>With Kontra and Re switched on, a defender who thinks the declarer will lose may say <b>Kontra</b> once the game is announced, until he plays his first card (the table can choose other limits). That doubles the game. The declarer may answer <b>Re</b> and double it again.</p>
<p>Kontra and Re double only the game value: a won Kontra game of 24 scores 48, or 96 with Re, and the tournament 50, 40 and 30 stay as they are. They never change whether a game is overbid.</p>`,
  bock: `
<p>Bock rounds reward remarkable games. When a game ends 60 to 60, when Kontra and Re were both said, when a game with Kontra is lost, or when a game is worth 100 or more, a <b>Bock round</b> follows: one deal per player in which every game counts double.</p>
<p>Bock doubles game values and Ramsch entries, not the tournament points. A thrown-in deal uses up a Bock deal. Optionally each Bock round is followed by a <b>Ramsch round</b>, one compulsory Ramsch per player.</p>`,
  four: `
<p>At a table of four the dealer deals to the other three and sits the deal out; the deal passes to the left, so everyone sits out in turn. A list is then 48 deals.</p>
<p>With tournament scoring, when a declarer loses, each of the other three players gets 30 points: both defenders and the dealer. In Ramsch the dealer scores nothing.</p>`
};
