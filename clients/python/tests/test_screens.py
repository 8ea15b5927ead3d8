"""A screen is the same screen when what the rules read is: clocks and the status bar aside."""

from conftest import HOME, capture

from auditd import digest, location


def test_a_clock_or_the_status_bar_is_not_a_new_screen():
    xml, _ = capture(HOME)
    with_clock = xml.replace("<hierarchy rotation=\"0\">", '<hierarchy rotation="0"><node text="12:01" package="com.android.systemui" bounds="[0,0][9,9]"/>', 1)
    ticked = with_clock.replace("12:01", "12:02")
    assert digest(with_clock) == digest(ticked) == digest(xml)
    # A number in the app's own words is a number: "3 items" and "4 items" are one screen.
    assert digest(xml.replace('content-desc="Home', 'content-desc="Home 3', 1)) == digest(xml.replace('content-desc="Home', 'content-desc="Home 4', 1))


def test_another_name_or_state_is_another_screen():
    xml, _ = capture(HOME)
    assert digest(xml.replace('content-desc="Orders&#10;Tab 3 of 5"', 'content-desc=""')) != digest(xml)
    assert digest(xml.replace('selected="true"', 'selected="false"', 1)) != digest(xml)
    assert location(xml, ".ui.HomeActivity") == "HomeActivity"
