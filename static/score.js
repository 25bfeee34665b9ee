// One scorer (issue 30): a side's deal score from the rule set's numbers that the server
// sends as data (scorekeeper/rules/scoring.py score_table), the same sum as the engine's
// score_breakdown; tests/test_one_scorer.py runs this file against the engine. The phone
// scores with it only while it has no connection: the server's score is the one recorded.
(function (root) {
  function counted(totals, count, each) {  // a special total for some counts, else each
    return Object.prototype.hasOwnProperty.call(totals, String(count)) ? totals[count] : count * each;
  }
  // "side": the deal form's figures by their API names (absent ones are 0 or false).
  function scoreSide(table, side) {
    var f = function (name) { return Number(side[name]) || 0; };
    var score = f("meld_points") - f("hand_points") + table.concealed_canastas * f("concealed_canastas");
    var canastas = 0;
    Object.keys(table.canastas).forEach(function (kind) {
      score += table.canastas[kind] * f(kind);
      canastas += f(kind);
    });
    var threes = f("red_threes");
    if (threes) {
      var need = table.red_threes_plus_with_canastas;
      var plus = need === null || (need ? canastas >= need : f("meld_points") > 0);
      var red = counted(table.red_three_totals, threes, table.red_three);
      score += plus ? red : -red;
    }
    if (table.black_three_taken !== null && f("black_threes_taken")) {
      score += counted(table.black_threes_taken_totals, f("black_threes_taken"), table.black_three_taken);
    }
    if (table.black_three_penalty !== null) score -= table.black_three_penalty * f("black_threes_in_hand");
    if (side.went_out) score += table.going_out + (side.concealed ? table.concealed_going_out : 0);
    return score;
  }
  // The initial-meld minimum for a total: the highest tier the total reaches.
  function meldMinimum(tiers, total) {
    return tiers.reduce(function (m, tier) {
      return tier[0] === null || total >= tier[0] ? tier[1] : m;
    }, tiers[0][1]);
  }
  root.scoreSide = scoreSide;
  root.meldMinimum = meldMinimum;
  if (typeof module === "object" && module.exports) module.exports = { scoreSide: scoreSide, meldMinimum: meldMinimum };
})(this);
