#!/bin/sh
# /usr/local/sbin/tune.sh, run at boot
set -e
sudo sysctl -w net.core.rmem_max=67108864
if [ -w /proc/sys/net/core/wmem_max ]; then
	/sbin/sysctl -w net.core.wmem_max=67108864
fi
sysctl -p /etc/sysctl.d/99-extra.conf
sysctl -w net.ipv4.tcp_rmem="4096 131072 67108864" && echo sysctl done
exit 0
