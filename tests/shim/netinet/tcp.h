/*
 * Shim for tests/lint/bsd_compile.sh: the host's <netinet/tcp.h>, plus,
 * when compiling as macOS (-D__APPLE__), what tools/measure/measure_net.c takes
 * from xnu's bsd/netinet/tcp.h: TCP_CONNECTION_INFO (0x106) and struct
 * tcp_connection_info, its fields in xnu's order and sizes up to the
 * ones measure reads (the rest is left out; only types are checked here).
 */
#ifndef TT_SHIM_NETINET_TCP_H
#define TT_SHIM_NETINET_TCP_H

#include_next <netinet/tcp.h>

#ifdef __APPLE__
#include <stdint.h>

#define TCP_CONNECTION_INFO	0x106

struct tcp_connection_info {
	uint8_t		tcpi_state;
	uint8_t		tcpi_snd_wscale;
	uint8_t		tcpi_rcv_wscale;
	uint8_t		__pad1;
	uint32_t	tcpi_options;
	uint32_t	tcpi_flags;
	uint32_t	tcpi_rto;		/* ms */
	uint32_t	tcpi_maxseg;
	uint32_t	tcpi_snd_ssthresh;
	uint32_t	tcpi_snd_cwnd;
	uint32_t	tcpi_snd_wnd;
	uint32_t	tcpi_snd_sbbytes;
	uint32_t	tcpi_rcv_wnd;		/* bytes */
	uint32_t	tcpi_rttcur;		/* ms */
	uint32_t	tcpi_srtt;		/* ms */
	uint32_t	tcpi_rttvar;
	uint32_t	tcpi_tfo_bits;		/* 15 one-bit fields, pad */
	uint64_t	tcpi_txpackets __attribute__((aligned(8)));
	uint64_t	tcpi_txbytes __attribute__((aligned(8)));
	uint64_t	tcpi_txretransmitbytes __attribute__((aligned(8)));
	uint64_t	tcpi_rxpackets __attribute__((aligned(8)));
	uint64_t	tcpi_rxbytes __attribute__((aligned(8)));
	uint64_t	tcpi_rxoutoforderbytes __attribute__((aligned(8)));
	uint64_t	tcpi_txretransmitpackets __attribute__((aligned(8)));
};
#endif

#endif /* TT_SHIM_NETINET_TCP_H */
