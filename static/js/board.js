/* The board game's ring, phase track and dice (filled in once the board rule set's view lands). */
"use strict";
window.P10 = window.P10 || {};
