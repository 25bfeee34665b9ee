// One scorer (issue 30): a side's deal score from the rule set's numbers that the server
// sends as data (scorekeeper/rules/scoring.py score_table), the same sum as the engine's
// score_breakdown; tests/test_one_scorer.py runs this file against the engine. The phone
// scores with it only while it has no connection: the server's score is the one recorded.
(function (root) {
  function counted(totals, count, each) {  // a special total for some counts, else each
    return Object.prototype.hasOwnProperty.call(totals, String(count)) ? totals[count] : count * each;
  }
  function sign(signs, canastas) {  // the swing: the sign for 0, 1, 2 ... canastas
    return signs[Math.min(canastas, signs.length - 1)];
  }
  // "side": the deal form's figures by their API names (absent ones are 0 or false; a
  // special hand by its id).
  function scoreSide(table, side) {
    if (side.special_hand) return table.special_hands[side.special_hand];  // scored alone
    var f = function (name) { return Number(side[name]) || 0; };
    var score = table.concealed_canastas * f("concealed_canastas") - f("hand_points");
    var canastas = 0;
    Object.keys(table.canastas).forEach(function (kind) {
      score += table.canastas[kind] * f(kind);
      canastas += f(kind);
    });
    // Threes laid down, each colour on its own; signed by the swing, or by the canastas
    // (or the meld) the rule set asks before they count plus.
    var threes = table.threes_laid.reduce(function (sum, name) {
      return sum + (f(name) ? counted(table.red_three_totals, f(name), table.red_three) : 0);
    }, 0);
    var need = table.red_threes_plus_with_canastas;
    var plus = need === null || (need ? canastas >= need : f("meld_points") > 0);
    score += (table.swing ? sign(table.swing.threes, canastas) : plus ? 1 : -1) * threes;
    score += (table.swing ? sign(table.swing.meld, canastas) : 1) * f("meld_points");
    Object.keys(table.penalties).forEach(function (name) {
      score -= table.penalties[name] * f(name);
    });
    if (table.black_three_taken !== null && f("black_threes_taken")) {
      score += counted(table.black_threes_taken_totals, f("black_threes_taken"), table.black_three_taken);
    }
    if (table.black_three_penalty !== null) score -= table.black_three_penalty * f("black_threes_in_hand");
    if (side.went_out) score += table.going_out + (side.concealed ? table.concealed_going_out : 0);
    return score;
  }
  // The initial-meld minimum of a side with this total in deal number "deal": the deal's
  // own where the minimum goes by deal (the last for later deals), else the highest tier
  // the total reaches.
  function meldMinimum(table, total, deal) {
    var byDeal = table.minimums_by_deal || [];
    if (byDeal.length) return byDeal[Math.min(deal, byDeal.length) - 1];
    return table.minimums.reduce(function (m, tier) {
      return tier[0] === null || total >= tier[0] ? tier[1] : m;
    }, table.minimums[0][1]);
  }
  root.scoreSide = scoreSide;
  root.meldMinimum = meldMinimum;
  if (typeof module === "object" && module.exports) module.exports = { scoreSide: scoreSide, meldMinimum: meldMinimum };
})(this);
