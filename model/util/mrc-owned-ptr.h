/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_OWNED_PTR_H
#define MRC_OWNED_PTR_H

#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief One reference to a reference-counted ns-3 object, moved rather than copied.
 *
 * ns-3.37's Ptr has no move constructor or move assignment: every "move" of a Ptr is a
 * Ref and an Unref, and a queue that takes a Ptr in and gives it back out pays several
 * of them per element. This holder takes its reference once (from a Ptr) and hands it
 * over once (Release, as a Ptr that adopts it); moves in between only move the raw
 * pointer. It is move-only, so a queue of them (MrcRing) never copies one by accident.
 *
 * \tparam T a class with Ref() and Unref() (SimpleRefCount, Object)
 */
template <typename T>
class MrcOwnedPtr
{
  public:
    /// Empty.
    MrcOwnedPtr() = default;

    /// \param p the object to hold a reference to (null: empty)
    explicit MrcOwnedPtr(const Ptr<T>& p)
        : m_ptr(PeekPointer(p))
    {
        if (m_ptr != nullptr)
        {
            m_ptr->Ref();
        }
    }

    /// \param o moved from (left empty)
    MrcOwnedPtr(MrcOwnedPtr&& o) noexcept
        : m_ptr(o.m_ptr)
    {
        o.m_ptr = nullptr;
    }

    /// \param o moved from (left empty) \return this
    MrcOwnedPtr& operator=(MrcOwnedPtr&& o) noexcept
    {
        if (this != &o)
        {
            Reset();
            m_ptr = o.m_ptr;
            o.m_ptr = nullptr;
        }
        return *this;
    }

    MrcOwnedPtr(const MrcOwnedPtr&) = delete;
    MrcOwnedPtr& operator=(const MrcOwnedPtr&) = delete;

    ~MrcOwnedPtr()
    {
        Reset();
    }

    /// \return the object, or null (the reference stays here)
    T* Get() const
    {
        return m_ptr;
    }

    /// \return the object (must not be empty)
    T* operator->() const
    {
        return m_ptr;
    }

    /// \return true unless empty
    explicit operator bool() const
    {
        return m_ptr != nullptr;
    }

    /// Hand the reference over. \return a Ptr that owns it (null if empty); this is empty
    Ptr<T> Release()
    {
        T* p = m_ptr;
        m_ptr = nullptr;
        return Ptr<T>(p, false);
    }

    /// Drop the reference, if any.
    void Reset()
    {
        if (m_ptr != nullptr)
        {
            T* p = m_ptr;
            m_ptr = nullptr;
            p->Unref();
        }
    }

  private:
    T* m_ptr{nullptr}; //!< the object, one reference held
};

} // namespace ns3

#endif /* MRC_OWNED_PTR_H */
