// Пакет storage — вспомогательные хранилища в памяти.
package storage

import (
	"container/list"
	"sync"
)

// LRUCache — потокобезопасный кэш ограниченного размера. При переполнении
// вытесняется запись, к которой дольше всего не обращались.
type LRUCache struct {
	mu    sync.Mutex
	cap   int
	ll    *list.List
	items map[string]*list.Element
}

type entry struct {
	key   string
	value any
}

// NewLRUCache создаёт кэш на capacity записей.
func NewLRUCache(capacity int) *LRUCache {
	return &LRUCache{cap: capacity, ll: list.New(), items: map[string]*list.Element{}}
}

// Get возвращает значение и переносит запись в начало очереди.
func (c *LRUCache) Get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.ll.MoveToFront(el)
		return el.Value.(*entry).value, true
	}
	return nil, false
}

// Put добавляет или обновляет запись.
func (c *LRUCache) Put(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value.(*entry).value = value
		c.ll.MoveToFront(el)
		return
	}
	c.items[key] = c.ll.PushFront(&entry{key, value})
	if c.ll.Len() > c.cap {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.items, last.Value.(*entry).key)
	}
}
