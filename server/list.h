/*
 * list.h - an intrusive doubly linked list for the server's own objects.
 *
 * Sessions, listeners, bus workers and watches hang off the server context
 * (or a session) on these lists; unlinking is O(1) so a session can leave
 * from its close path without a search. Header-only, no allocation; a node
 * that is not on a list points to itself, so unlinking twice is harmless.
 * Nothing here knows about libuv or the wire.
 */
#ifndef IIOWIRE_SRV_LIST_H
#define IIOWIRE_SRV_LIST_H

#include <stddef.h>
#include <stdbool.h>

struct srv_list {
	struct srv_list *next, *prev;
};

#define srv_container_of(ptr, type, member)				\
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void srv_list_init(struct srv_list *l)
{
	l->next = l;
	l->prev = l;
}

static inline bool srv_list_empty(const struct srv_list *l)
{
	return l->next == l;
}

/* srv_list_add_tail() - put @n at the end of @head; srv_list_del() takes it off. */
static inline void srv_list_add_tail(struct srv_list *head, struct srv_list *n)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

static inline void srv_list_del(struct srv_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	srv_list_init(n);
}

/* srv_list_splice() - move every node of @src to the end of @dst; @src is left empty. */
static inline void srv_list_splice(struct srv_list *dst, struct srv_list *src)
{
	if (srv_list_empty(src))
		return;
	src->next->prev = dst->prev;
	dst->prev->next = src->next;
	src->prev->next = dst;
	dst->prev = src->prev;
	srv_list_init(src);
}

/* Iterate; @tmp lets the body unlink @pos. */
#define srv_list_for_each_safe(pos, tmp, head)				\
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head);	\
	     (pos) = (tmp), (tmp) = (pos)->next)

/*
 * srv_slist_reverse() - reverse a NULL-terminated singly linked list whose
 * nodes link through ->@member (a list built newest first, read oldest
 * first); evaluates to the new head.
 */
#define srv_slist_reverse(head, member)						\
	({									\
		__typeof__(head) rev_ = NULL, cur_ = (head), next_;		\
		while (cur_) {							\
			next_ = cur_->member;					\
			cur_->member = rev_;					\
			rev_ = cur_;						\
			cur_ = next_;						\
		}								\
		rev_;								\
	})

#endif /* IIOWIRE_SRV_LIST_H */
