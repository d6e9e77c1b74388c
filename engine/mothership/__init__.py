"""The Mothership card game on its 3 x 5 battlefield: rules, movement, setup checks and fairness."""
