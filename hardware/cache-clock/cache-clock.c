/*
 * cache-clock: a TCG plugin of cgscale (QEMU 7.2 plugin API, version 1).
 *
 * Models a per-vCPU L1d and a per-vCPU L2 (set-associative, LRU,
 * write-allocate, physically indexed), keeps per 64-byte physical line the
 * vCPU that wrote it last and the vCPUs that read it since, and counts only
 * inside windows that a guest program opens with the start marker
 * `xchg %bx,%bx` (66 87 db) and closes with the stop marker `xchg %cx,%cx`
 * (66 87 c9). One window spans all vCPUs. Each closed window is one JSON
 * line in out=PATH. See README.md beside this file.
 *
 * Args (all optional):
 *   out=PATH        JSON lines (default: cache-clock.jsonl)
 *   l1d=48K l1dassoc=12 l2=2M l2assoc=16 line=64
 *   writes=on|off   off: stores are ignored entirely (negative test)
 *   coherent=on|off on: a store invalidates the line in the other vCPUs'
 *                   caches (default on; off is what upstream cache.c does)
 *   markers=on|off  off: one window from plugin start to exit (whole boot)
 *   warm=on|off     on: model caches and owners outside windows too (default)
 *   map=PATH        System.map for symbols of instructions and data
 *   top=N           top lines / instructions per window (default 10)
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64

/* ---- cache model ---- */
struct cache {
	uint64_t *tags;   /* sets * assoc, MRU first; 0 = empty, else line+1 */
	unsigned sets, assoc;
};

static void cache_init(struct cache *c, uint64_t size, unsigned assoc,
		       unsigned line)
{
	c->assoc = assoc;
	c->sets = size / line / assoc;
	c->tags = g_new0(uint64_t, (size_t)c->sets * assoc);
}

/* true on hit; on miss the line is inserted (LRU victim dropped) */
static bool cache_access(struct cache *c, uint64_t lineno)
{
	uint64_t *set = c->tags + (size_t)(lineno % c->sets) * c->assoc;
	uint64_t tag = lineno + 1;
	unsigned i;

	for (i = 0; i < c->assoc; i++) {
		if (set[i] == tag) {
			memmove(set + 1, set, i * sizeof(*set));
			set[0] = tag;
			return true;
		}
	}
	memmove(set + 1, set, (c->assoc - 1) * sizeof(*set));
	set[0] = tag;
	return false;
}

static void cache_invalidate(struct cache *c, uint64_t lineno)
{
	uint64_t *set = c->tags + (size_t)(lineno % c->sets) * c->assoc;
	uint64_t tag = lineno + 1;
	unsigned i;

	for (i = 0; i < c->assoc; i++) {
		if (set[i] == tag) {
			memmove(set + i, set + i + 1,
				(c->assoc - 1 - i) * sizeof(*set));
			set[c->assoc - 1] = 0;
			return;
		}
	}
}

/* ---- line owners: 2 MiB regions of 32768 lines, allocated lazily ---- */
struct owner {
	int16_t writer;     /* vCPU that wrote last, -1 none */
	uint16_t pad;
	uint32_t pad2;
	uint64_t readers;   /* vCPUs that read since the last write */
};
#define REGION_SHIFT 21

/* ---- state ---- */
struct counts {
	uint64_t loads, stores, l1d_miss, l2_miss, transfers, user_transfers;
};

struct line_stat {
	uint64_t transfers, vaddr, insn;
	uint64_t by_vcpu[2];
};

struct insn_stat {
	uint64_t l1d_miss, l2_miss, transfers;
};

static GMutex lock;
static struct cache l1d[MAX_VCPUS], l2[MAX_VCPUS];
static GHashTable *regions;           /* region number -> struct owner[] */
static unsigned line_shift = 6, n_vcpus_seen;
static uint64_t l1d_size = 48 * 1024, l2_size = 2 * 1024 * 1024;
static unsigned l1d_assoc = 12, l2_assoc = 16, line_size = 64, top_n = 10;
static bool opt_writes = true, opt_coherent = true, opt_markers = true,
	    opt_warm = true;
static char *out_path, *map_path;
static FILE *out;

static bool window_open;
static uint64_t window_no, insn_counter, insn_at_start;
static int start_vcpu;
static struct counts win[MAX_VCPUS];
static GHashTable *win_lines, *win_insns;  /* paddr line / insn vaddr -> stat */
static uint64_t markers_ignored;

/* ---- System.map ---- */
struct sym { uint64_t addr; char *name; };
static struct sym *syms;
static size_t n_syms;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[512], type, name[400];
	uint64_t addr;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "cache-clock: cannot open map=%s\n", path);
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "%" SCNx64 " %c %399s", &addr, &type, name) != 3)
			continue;
		if (type == 'a' || type == 'A' || type == 'U' || type == 'w')
			continue;
		if (n_syms == cap) {
			cap = cap ? cap * 2 : 65536;
			syms = g_renew(struct sym, syms, cap);
		}
		syms[n_syms].addr = addr;
		syms[n_syms].name = g_strdup(name);
		n_syms++;
	}
	fclose(f);
	qsort(syms, n_syms, sizeof(*syms), sym_cmp);
}

/* "name+0xoff" or NULL; only kernel addresses, at most 1 MiB past a symbol */
static char *sym_of(uint64_t addr)
{
	size_t lo = 0, hi = n_syms;

	if (!n_syms || addr < syms[0].addr || addr < 0xffff800000000000ULL)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (addr - syms[lo].addr > (1 << 20))
		return NULL;
	return g_strdup_printf("%s+0x%" PRIx64, syms[lo].name,
			       addr - syms[lo].addr);
}

static void put_sym(GString *s, const char *key, uint64_t addr)
{
	char *n = sym_of(addr);

	if (n)
		g_string_append_printf(s, ",\"%s\":\"%s\"", key, n);
	else
		g_string_append_printf(s, ",\"%s\":null", key);
	g_free(n);
}

/* ---- windows ---- */
static void window_begin(unsigned vcpu)
{
	window_open = true;
	insn_at_start = insn_counter;
	start_vcpu = vcpu;
	memset(win, 0, sizeof(win));
	g_hash_table_remove_all(win_lines);
	g_hash_table_remove_all(win_insns);
}

static gint by_transfers(gconstpointer a, gconstpointer b, gpointer ud)
{
	const struct line_stat *x = g_hash_table_lookup(ud, a);
	const struct line_stat *y = g_hash_table_lookup(ud, b);
	return x->transfers < y->transfers ? 1 : x->transfers > y->transfers ? -1 : 0;
}

static gint by_misses(gconstpointer a, gconstpointer b, gpointer ud)
{
	const struct insn_stat *x = g_hash_table_lookup(ud, a);
	const struct insn_stat *y = g_hash_table_lookup(ud, b);
	return x->l1d_miss < y->l1d_miss ? 1 : x->l1d_miss > y->l1d_miss ? -1 : 0;
}

static void window_end(int vcpu, bool at_exit)
{
	GString *s = g_string_new(NULL);
	struct counts t = { 0 };
	GList *keys, *k;
	unsigned i, n;

	for (i = 0; i < MAX_VCPUS; i++) {
		t.loads += win[i].loads;
		t.stores += win[i].stores;
		t.l1d_miss += win[i].l1d_miss;
		t.l2_miss += win[i].l2_miss;
		t.transfers += win[i].transfers;
		t.user_transfers += win[i].user_transfers;
	}
	g_string_append_printf(s,
		"{\"window\":%" PRIu64 ",\"start_vcpu\":%d,\"stop_vcpu\":%d,"
		"\"at_exit\":%s,\"insns\":%" PRIu64 ",\"mem\":%" PRIu64
		",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64
		",\"l1d_misses\":%" PRIu64 ",\"l2_misses\":%" PRIu64
		",\"transfers\":%" PRIu64 ",\"user_transfers\":%" PRIu64,
		window_no, start_vcpu, vcpu, at_exit ? "true" : "false",
		insn_counter - insn_at_start, t.loads + t.stores, t.loads,
		t.stores, t.l1d_miss, t.l2_miss, t.transfers, t.user_transfers);
	g_string_append_printf(s,
		",\"model\":{\"l1d\":%" PRIu64 ",\"l1d_assoc\":%u,\"l2\":%" PRIu64
		",\"l2_assoc\":%u,\"l2_shared\":false,\"line\":%u,"
		"\"policy\":\"lru\",\"writes\":%s,\"coherent\":%s,\"warm\":%s,"
		"\"markers\":%s}",
		l1d_size, l1d_assoc, l2_size, l2_assoc, line_size,
		opt_writes ? "true" : "false", opt_coherent ? "true" : "false",
		opt_warm ? "true" : "false", opt_markers ? "true" : "false");
	g_string_append(s, ",\"per_vcpu\":[");
	for (i = 0; i < n_vcpus_seen; i++)
		g_string_append_printf(s, "%s{\"loads\":%" PRIu64 ",\"stores\":%"
			PRIu64 ",\"l1d_misses\":%" PRIu64 ",\"l2_misses\":%"
			PRIu64 ",\"transfers\":%" PRIu64 "}", i ? "," : "",
			win[i].loads, win[i].stores, win[i].l1d_miss,
			win[i].l2_miss, win[i].transfers);
	g_string_append(s, "],\"top_lines\":[");
	keys = g_list_sort_with_data(g_hash_table_get_keys(win_lines),
				     by_transfers, win_lines);
	for (k = keys, n = 0; k && n < top_n; k = k->next, n++) {
		uint64_t line = *(uint64_t *)k->data;
		struct line_stat *ls = g_hash_table_lookup(win_lines, k->data);
		g_string_append_printf(s, "%s{\"paddr\":\"0x%" PRIx64
			"\",\"transfers\":%" PRIu64 ",\"vaddr\":\"0x%" PRIx64
			"\",\"insn\":\"0x%" PRIx64 "\"", n ? "," : "",
			line << line_shift, ls->transfers, ls->vaddr, ls->insn);
		put_sym(s, "sym", ls->vaddr);
		put_sym(s, "insn_sym", ls->insn);
		g_string_append(s, "}");
	}
	g_list_free(keys);
	g_string_append(s, "],\"top_insns\":[");
	keys = g_list_sort_with_data(g_hash_table_get_keys(win_insns),
				     by_misses, win_insns);
	for (k = keys, n = 0; k && n < top_n; k = k->next, n++) {
		uint64_t va = *(uint64_t *)k->data;
		struct insn_stat *is = g_hash_table_lookup(win_insns, k->data);
		g_string_append_printf(s, "%s{\"vaddr\":\"0x%" PRIx64
			"\",\"l1d_misses\":%" PRIu64 ",\"l2_misses\":%" PRIu64
			",\"transfers\":%" PRIu64, n ? "," : "", va,
			is->l1d_miss, is->l2_miss, is->transfers);
		put_sym(s, "sym", va);
		g_string_append(s, "}");
	}
	g_list_free(keys);
	g_string_append(s, "]}\n");
	fputs(s->str, out);
	fflush(out);
	g_string_free(s, TRUE);
	window_open = false;
	window_no++;
}

static void marker_start(unsigned int vcpu, void *ud)
{
	g_mutex_lock(&lock);
	if (window_open)
		markers_ignored++;
	else
		window_begin(vcpu);
	g_mutex_unlock(&lock);
}

static void marker_stop(unsigned int vcpu, void *ud)
{
	g_mutex_lock(&lock);
	if (window_open)
		window_end(vcpu, false);
	else
		markers_ignored++;
	g_mutex_unlock(&lock);
}

/* ---- memory accesses ---- */
static struct owner *owner_of(uint64_t line)
{
	uint64_t reg = line >> (REGION_SHIFT - line_shift);
	struct owner *o = g_hash_table_lookup(regions, GUINT_TO_POINTER(reg + 1));
	size_t per = (size_t)1 << (REGION_SHIFT - line_shift), i;

	if (!o) {
		o = g_new(struct owner, per);
		for (i = 0; i < per; i++) {
			o[i].writer = -1;
			o[i].readers = 0;
		}
		g_hash_table_insert(regions, GUINT_TO_POINTER(reg + 1), o);
	}
	return o + (line & (per - 1));
}

static struct insn_stat *insn_stat(uint64_t insn)
{
	struct insn_stat *is = g_hash_table_lookup(win_insns, &insn);

	if (!is) {
		uint64_t *key = g_new(uint64_t, 1);
		*key = insn;
		is = g_new0(struct insn_stat, 1);
		g_hash_table_insert(win_insns, key, is);
	}
	return is;
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *ud)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	bool store = qemu_plugin_mem_is_store(info);
	uint64_t insn = (uint64_t)(uintptr_t)ud;
	uint64_t paddr, line, vbit;
	struct owner *o;
	bool l1hit, l2hit = true, xfer = false;
	struct insn_stat *is = NULL;

	if (store && !opt_writes)
		return;
	if (hw && qemu_plugin_hwaddr_is_io(hw))
		return;
	if (vcpu >= MAX_VCPUS)
		return;
	if (!window_open && !opt_warm)
		return;
	paddr = hw ? qemu_plugin_hwaddr_phys_addr(hw) : vaddr;
	line = paddr >> line_shift;
	vbit = 1ULL << vcpu;

	g_mutex_lock(&lock);
	if (vcpu >= n_vcpus_seen)
		n_vcpus_seen = vcpu + 1;
	o = owner_of(line);
	if (o->writer >= 0 && o->writer != (int)vcpu && !(o->readers & vbit))
		xfer = true;
	if (store) {
		if (opt_coherent) {
			uint64_t holders = o->readers;
			unsigned v;
			if (o->writer >= 0)
				holders |= 1ULL << o->writer;
			holders &= ~vbit;
			for (v = 0; holders; v++, holders >>= 1) {
				if (holders & 1) {
					cache_invalidate(&l1d[v], line);
					cache_invalidate(&l2[v], line);
				}
			}
		}
		o->writer = vcpu;
		o->readers = 0;
	} else {
		o->readers |= vbit;
	}
	l1hit = cache_access(&l1d[vcpu], line);
	if (!l1hit)
		l2hit = cache_access(&l2[vcpu], line);

	if (window_open) {
		struct counts *c = &win[vcpu];
		if (store)
			c->stores++;
		else
			c->loads++;
		if (!l1hit) {
			c->l1d_miss++;
			is = insn_stat(insn);
			is->l1d_miss++;
			if (!l2hit) {
				c->l2_miss++;
				is->l2_miss++;
			}
		}
		if (xfer) {
			struct line_stat *ls = g_hash_table_lookup(win_lines, &line);
			c->transfers++;
			if (vaddr < 0x0000800000000000ULL)
				c->user_transfers++;
			if (!is)
				is = insn_stat(insn);
			is->transfers++;
			if (!ls) {
				uint64_t *key = g_new(uint64_t, 1);
				*key = line;
				ls = g_new0(struct line_stat, 1);
				ls->vaddr = vaddr;
				ls->insn = insn;
				g_hash_table_insert(win_lines, key, ls);
			}
			ls->transfers++;
		}
	}
	g_mutex_unlock(&lock);
}

/* ---- translation ---- */
static const uint8_t start_bytes[] = { 0x66, 0x87, 0xdb }; /* xchg %bx,%bx */
static const uint8_t stop_bytes[] = { 0x66, 0x87, 0xc9 };  /* xchg %cx,%cx */

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &insn_counter, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		if (opt_markers && qemu_plugin_insn_size(insn) == 3) {
			const uint8_t *b = qemu_plugin_insn_data(insn);
			if (!memcmp(b, start_bytes, 3))
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					marker_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
			else if (!memcmp(b, stop_bytes, 3))
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					marker_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)(uintptr_t)va);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	g_mutex_lock(&lock);
	if (window_open)
		window_end(-1, true);
	fprintf(out, "{\"summary\":true,\"windows\":%" PRIu64
		",\"markers_ignored\":%" PRIu64 ",\"insns_total\":%" PRIu64
		",\"vcpus\":%u}\n", window_no, markers_ignored, insn_counter,
		n_vcpus_seen);
	fclose(out);
	out = NULL;
	g_mutex_unlock(&lock);
}

static bool parse_size(const char *v, uint64_t *r)
{
	char *end;
	uint64_t x = g_ascii_strtoull(v, &end, 10);

	if (end == v)
		return false;
	switch (*end) {
	case 'k': case 'K': x <<= 10; end++; break;
	case 'm': case 'M': x <<= 20; end++; break;
	case '\0': break;
	default: return false;
	}
	if (*end)
		return false;
	*r = x;
	return x > 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;
	unsigned v;
	uint64_t x;

	for (i = 0; i < argc; i++) {
		char **kv = g_strsplit(argv[i], "=", 2);
		const char *k = kv[0], *val = kv[1];
		bool ok = val != NULL;

		if (!ok) {
		} else if (!strcmp(k, "out")) {
			out_path = g_strdup(val);
		} else if (!strcmp(k, "map")) {
			map_path = g_strdup(val);
		} else if (!strcmp(k, "l1d")) {
			ok = parse_size(val, &l1d_size);
		} else if (!strcmp(k, "l2")) {
			ok = parse_size(val, &l2_size);
		} else if (!strcmp(k, "l1dassoc")) {
			ok = parse_size(val, &x); l1d_assoc = x;
		} else if (!strcmp(k, "l2assoc")) {
			ok = parse_size(val, &x); l2_assoc = x;
		} else if (!strcmp(k, "line")) {
			ok = parse_size(val, &x) && !(x & (x - 1)) && x >= 8;
			line_size = x;
		} else if (!strcmp(k, "top")) {
			ok = parse_size(val, &x); top_n = x;
		} else if (!strcmp(k, "writes")) {
			ok = qemu_plugin_bool_parse(k, val, &opt_writes);
		} else if (!strcmp(k, "coherent")) {
			ok = qemu_plugin_bool_parse(k, val, &opt_coherent);
		} else if (!strcmp(k, "markers")) {
			ok = qemu_plugin_bool_parse(k, val, &opt_markers);
		} else if (!strcmp(k, "warm")) {
			ok = qemu_plugin_bool_parse(k, val, &opt_warm);
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "cache-clock: bad argument '%s'\n", argv[i]);
			g_strfreev(kv);
			return -1;
		}
		g_strfreev(kv);
	}
	if (l1d_size % ((uint64_t)line_size * l1d_assoc) ||
	    l2_size % ((uint64_t)line_size * l2_assoc)) {
		fprintf(stderr, "cache-clock: size must be a multiple of line*assoc\n");
		return -1;
	}
	line_shift = __builtin_ctz(line_size);
	if (line_shift > REGION_SHIFT - 4) {
		fprintf(stderr, "cache-clock: line too large\n");
		return -1;
	}
	for (v = 0; v < MAX_VCPUS; v++) {
		cache_init(&l1d[v], l1d_size, l1d_assoc, line_size);
		cache_init(&l2[v], l2_size, l2_assoc, line_size);
	}
	out = fopen(out_path ? out_path : "cache-clock.jsonl", "w");
	if (!out) {
		fprintf(stderr, "cache-clock: cannot write out=%s\n", out_path);
		return -1;
	}
	if (map_path)
		load_map(map_path);
	regions = g_hash_table_new(g_direct_hash, g_direct_equal);
	win_lines = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
	win_insns = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
	if (!opt_markers)
		window_begin(0);
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
