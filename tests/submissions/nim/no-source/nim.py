# labgrade sample: no-source
# --------------------------
# Figure 7-5 translated into Python: right, but not something labgrade builds. labgrade says
# what it saw in the folder and what it accepts.

MAX_MOVE = 3
NO_GOOD_MOVE = -1


def find_good_move(n_coins):
    for n_taken in range(1, MAX_MOVE + 1):
        if is_bad_position(n_coins - n_taken):
            return n_taken
    return NO_GOOD_MOVE


def is_bad_position(n_coins):
    if n_coins == 1:
        return True
    return find_good_move(n_coins) == NO_GOOD_MOVE


def choose_computer_move(n_coins):
    n_taken = find_good_move(n_coins)
    return 1 if n_taken == NO_GOOD_MOVE else n_taken
