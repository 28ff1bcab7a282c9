/*
 * hotspot_proto: build attach requests, parse "load" replies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attach_proto.h"

/* Append s and its NUL; NULL is sent as an empty argument. */
static int put(char *buf, size_t size, size_t *len, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	if (n > max)
		return -ENAMETOOLONG;
	if (*len + n + 1 > size)
		return -ENOSPC;
	memcpy(buf + *len, s ? s : "", n);
	buf[*len + n] = '\0';
	*len += n + 1;
	return 0;
}

int attach_proto__request(char *buf, size_t size, const char *cmd,
			  const char *arg0, const char *arg1, const char *arg2)
{
	const char *parts[] = {arg0, arg1, arg2};
	size_t len = 0;
	int err;

	err = put(buf, size, &len, "1", 1);
	if (!err)
		err = put(buf, size, &len, cmd, ATTACH_CMD_MAX);
	for (int i = 0; !err && i < 3; i++)
		err = put(buf, size, &len, parts[i], ATTACH_ARG_MAX);
	return err ? err : (int)len;
}

/* Split off the next line of [*p, end); false at the end of the text. */
static bool next_line(const char **p, const char *end, const char **line,
		      size_t *n)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', end - *p);
	*line = *p;
	*n = (nl ? nl : end) - *p;
	*p = nl ? nl + 1 : end;
	return true;
}

/* A whole line that is a decimal integer, as HotSpot prints with "%d". */
static bool parse_int(const char *s, size_t n, int *out)
{
	char tmp[24], *end;
	long v;

	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	if (!n || n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtol(tmp, &end, 10);
	if (*end || errno || v < -0x7fffffffL - 1 || v > 0x7fffffffL)
		return false;
	*out = (int)v;
	return true;
}

/* Join the remaining non-empty lines into msg, "; " between them. */
static void join_lines(const char *p, const char *end, char *msg, size_t size)
{
	const char *line;
	size_t n, len = 0;

	msg[0] = '\0';
	while (next_line(&p, end, &line, &n)) {
		if (!n)
			continue;
		if (len && len + 2 < size) {
			memcpy(msg + len, "; ", 2);
			len += 2;
		}
		if (len + n >= size)
			n = size - len - 1;
		memcpy(msg + len, line, n);
		len += n;
		msg[len] = '\0';
	}
}

int attach_proto__parse_load_reply(const char *text, size_t len,
				   struct attach_reply *r)
{
	static const char rc_prefix[] = "return code: ";
	const size_t rc_len = sizeof(rc_prefix) - 1;
	const char *p = text, *end = text + len, *line;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (!next_line(&p, end, &line, &n) || !parse_int(line, n, &r->result))
		return -EPROTO;
	if (r->result == 0 && next_line(&p, end, &line, &n)) {
		if (n > rc_len && !memcmp(line, rc_prefix, rc_len))
			r->ran =
			    parse_int(line + rc_len, n - rc_len, &r->agent_rc);
		else
			r->ran = parse_int(line, n, &r->agent_rc);
		if (r->ran)
			return 0;
		p = line; /* not a return code: it is the JVM's reason */
	}
	join_lines(p, end, r->msg, sizeof(r->msg));
	if (!r->msg[0] && r->result == 0)
		return -EPROTO; /* "0" and nothing else: no answer to load */
	return 0;
}
