#!/bin/sh
# Install the table companion as a service on Raspberry Pi OS (Bookworm or later), from this checkout.
#   sudo systemd/install.sh            # install or upgrade, enable and start
#   sudo systemd/install.sh --no-start # install and enable only (e.g. before wiring is finished)
# What it does: a system user `companion` in gpio, spi and dialout; the code in /opt/companion/src; a venv
# with --system-site-packages (so python3-lgpio from the OS is seen) and `pip install .[pi]`; the udev rules
# for seat terminals; /etc/companion/table.toml from an example if none exists; SPI turned on in config.txt;
# the systemd unit enabled. Run it again to upgrade: the config and the database are kept.
set -eu

START=1
[ "${1:-}" = "--no-start" ] && START=0

if [ "$(id -u)" -ne 0 ]; then
    echo "error: run as root (sudo $0)" >&2
    exit 1
fi

SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/companion
CONFIG_DIR=/etc/companion
USER_NAME=companion

echo "== system packages (python3-venv, python3-lgpio)"
apt-get install -y --no-install-recommends python3-venv python3-dev python3-lgpio swig gcc >/dev/null

echo "== user $USER_NAME"
for group in gpio spi dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
usermod -a -G gpio,spi,dialout "$USER_NAME"

echo "== code in $PREFIX/src, venv in $PREFIX/venv"
mkdir -p "$PREFIX"
rm -rf "$PREFIX/src.new"
mkdir -p "$PREFIX/src.new"
(cd "$SRC_DIR" && tar --exclude=.venv --exclude=.git --exclude='*.db' -cf - .) | (cd "$PREFIX/src.new" && tar -xf -)
rm -rf "$PREFIX/src"
mv "$PREFIX/src.new" "$PREFIX/src"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
"$PREFIX/venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[pi]"

echo "== config in $CONFIG_DIR"
mkdir -p "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/table.toml" ]; then
    cp "$PREFIX/src/hardware/tables/pi-5-seats.toml" "$CONFIG_DIR/table.toml"
    echo "   wrote $CONFIG_DIR/table.toml from hardware/tables/pi-5-seats.toml: edit it to match your table"
fi
"$PREFIX/venv/bin/companion" check-config "$CONFIG_DIR/table.toml" >/dev/null

echo "== udev rules for seat terminals"
install -m 0644 "$PREFIX/src/hardware/udev/99-companion-terminals.rules" /etc/udev/rules.d/
udevadm control --reload-rules || true
udevadm trigger --subsystem-match=tty || true

echo "== SPI in the boot config"
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt
REBOOT=0
if [ -f "$BOOT_CONFIG" ]; then
    for line in "dtparam=spi=on" "dtoverlay=spi1-3cs"; do
        if ! grep -q "^$line" "$BOOT_CONFIG"; then
            echo "$line" >> "$BOOT_CONFIG"
            REBOOT=1
        fi
    done
    CMDLINE=$(dirname "$BOOT_CONFIG")/cmdline.txt
    if [ -f "$CMDLINE" ] && ! grep -q "spidev.bufsiz=" "$CMDLINE"; then
        sed -i '1 s/$/ spidev.bufsiz=32768/' "$CMDLINE"
        REBOOT=1
    fi
else
    echo "   no config.txt found: enable SPI0 and SPI1 (spi1-3cs) yourself"
fi

echo "== systemd unit"
install -m 0644 "$PREFIX/src/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service
if [ "$REBOOT" -eq 1 ]; then
    echo "SPI was just enabled: reboot, then run: sudo -u $USER_NAME $PREFIX/venv/bin/companion doctor --config $CONFIG_DIR/table.toml"
elif [ "$START" -eq 1 ]; then
    systemctl restart companion.service
    systemctl --no-pager status companion.service | head -n 5 || true
fi
echo "done. Logs: journalctl -u companion -f"
