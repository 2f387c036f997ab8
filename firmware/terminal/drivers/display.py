"""An optional SSD1306 128x64 OLED on I2C through micropython-lib's `ssd1306` driver (on framebuf): the seat's
screen title and the highlighted option's label, 16 characters a line (the Pi sends short ASCII labels)."""

COLUMNS = 16
ROWS = 8


def wrap(text, columns=COLUMNS):
    """Text cut into lines of at most `columns` characters, at spaces where it can be."""
    out = []
    line = ""
    for word in text.split(" "):
        while len(word) > columns:
            if line:
                out.append(line)
                line = ""
            out.append(word[:columns])
            word = word[columns:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= columns:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


class Display:
    """Draws the terminal's lines on anything with fill/text/hline/show (an ssd1306.SSD1306_I2C)."""

    def __init__(self, oled):
        self.oled = oled
        self.last = None

    def show(self, lines):
        """The first line as a title over a rule, the rest wrapped below; skipped when nothing changed."""
        if lines == self.last:
            return
        self.last = list(lines)
        oled = self.oled
        oled.fill(0)
        title = lines[0][:COLUMNS] if lines else ""
        oled.text(title, 0, 0, 1)
        oled.hline(0, 10, 128, 1)
        rows = []
        for line in lines[1:]:
            rows += wrap(line)
        for i, row in enumerate(rows[:ROWS - 2]):
            oled.text(row, 0, 14 + 8 * i, 1)
        oled.show()


def open_display(cfg):
    """The display described by config.DISPLAY: I2C bus, SDA and SCL pins, address (default 0x3C)."""
    import machine
    import ssd1306  # micropython-lib: `mpremote mip install ssd1306`

    i2c = machine.I2C(cfg.get("i2c", 0), sda=machine.Pin(cfg["sda"]), scl=machine.Pin(cfg["scl"]), freq=400000)
    oled = ssd1306.SSD1306_I2C(128, 64, i2c, addr=cfg.get("addr", 0x3C))
    return Display(oled)
